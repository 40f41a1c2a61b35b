import type { PluginApi } from '@cw/core/plugin';
import { OPENCODE_ZEN_BODY_MATCH, OPENCODE_ZEN_BODY_STAGE, refineOpenCodeZenBody } from './opencode-zen-build-body.js';
import { OPENCODE_ZEN_ROWS } from './opencode-zen-capability-rows.js';

/** Registers OpenCode Zen's routes and the Responses refinement data cannot express. */
export function register(api: PluginApi): void {
  for (const row of OPENCODE_ZEN_ROWS) api.addRoute(row);
  api.refineBody(OPENCODE_ZEN_BODY_MATCH, refineOpenCodeZenBody, { stage: OPENCODE_ZEN_BODY_STAGE });
}
