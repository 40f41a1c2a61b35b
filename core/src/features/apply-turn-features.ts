import type { CoreTurnHooks } from '../turn/core-turn-types.js';
import { applyAutoRoute } from './auto-route/auto-route-feature.js';
import { applyCompaction } from './compaction/compaction-feature.js';
import { applyGoal } from './goal/goal-feature.js';
import { applyMcp } from './mcp/mcp-feature.js';
import { applyPromptResolution } from './prompt-resolution/prompt-resolution-feature.js';
import { applySkills } from './skills/skills-feature.js';
import { applySubmitHooks } from './submit-hooks/submit-hooks-feature.js';
import { applyToolDeferral } from './tool-deferral/tool-deferral-feature.js';

/**
 * Applies cw's own turn features to a registry's turn hooks, the way webpack applies its internal
 * plugins: each feature is one `apply(hooks)` in its own folder, and this is the one place that
 * names them. Their order on `gate` and `prepareTurn` is set by the stages each registers, not by this list.
 */
export function applyTurnFeatures(hooks: CoreTurnHooks): void {
  applyGoal(hooks);
  applySubmitHooks(hooks);
  applySkills(hooks);
  applyPromptResolution(hooks);
  applyAutoRoute(hooks);
  applyCompaction(hooks);
  applyMcp(hooks);
  applyToolDeferral(hooks);
}
