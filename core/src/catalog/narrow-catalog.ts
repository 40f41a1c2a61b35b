import type { ToolGatesConfig } from '../config/cw-config.js';
import type { ToolDefinition } from '../tools/tool-definition.js';

/** How much of the catalog goes up front: `standard` keeps deferred tools back, `full` sends them too. */
export type ToolSurfaceBudget = 'standard' | 'full';

/** The catalog a turn starts its projection from, and how many tools the gates took out. */
export interface NarrowedCatalog {
  /** Tools that pass the gates and the budget, in catalog order. */
  readonly active: readonly ToolDefinition[];
  /** Catalog tools (deferred or not) removed by the allow/deny gates. */
  readonly gatedOutCount: number;
}

// A config written before `tools` existed, or a hand-built snapshot, has no gates: nothing is narrowed.
const NO_GATES: ToolGatesConfig = { surface: 'standard' };

/**
 * Narrows the canonical catalog for one turn: the allow gate (when present) keeps only the tools it
 * names, the deny gate removes the tools it names, and the budget decides whether deferred tools go
 * up front. Pure, so the manifest can run it under both budgets and compare the results.
 */
export function narrowCatalog(
  catalog: readonly ToolDefinition[],
  gates: ToolGatesConfig | undefined,
  budget: ToolSurfaceBudget,
): NarrowedCatalog {
  const { allow, deny } = gates ?? NO_GATES;
  const allowed = allow === undefined ? null : new Set(allow);
  const denied = new Set(deny ?? []);
  const passes = (tool: ToolDefinition): boolean =>
    (allowed === null || allowed.has(tool.name)) && !denied.has(tool.name);
  const gated = catalog.filter(passes);
  return {
    active: gated.filter((tool) => budget === 'full' || !tool.deferred),
    gatedOutCount: catalog.length - gated.length,
  };
}

/** The budget the config selects. */
export function surfaceBudget(gates: ToolGatesConfig | undefined): ToolSurfaceBudget {
  return (gates ?? NO_GATES).surface;
}
