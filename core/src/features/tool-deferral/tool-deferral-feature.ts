import type { CoreTurnHooks } from '../../turn/core-turn-types.js';
import { SEARCH_TOOLS_NAME, searchToolsImplementation } from '../../catalog/defer-catalog.js';

/** Tool deferral's name among the features. */
export const TOOL_DEFERRAL_FEATURE = 'tool-deferral';

/**
 * Tool deferral (docs/mcp.md, "Deferred tools") as a turn feature: a step whose request carried
 * `search_tools` can run it, over that step's own deferred tools.
 */
export function applyToolDeferral(hooks: CoreTurnHooks): void {
  hooks.stepTools.tap(TOOL_DEFERRAL_FEATURE, (tools, { plan }) => {
    if (!plan.prepared.searchable) return tools;
    return new Map(tools).set(SEARCH_TOOLS_NAME, searchToolsImplementation(plan.prepared.deferredTools));
  });
}
