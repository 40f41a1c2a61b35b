import type { DialectDefinition } from '../dialect/dialect-contract.js';
import type { CoreHooks } from '../hooks.js';
import type { CapabilityRow } from '../route/capability-row.js';
import type { ToolImplementation } from '../tools/tool-contract.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { TurnHooks } from '../turn/turn-hooks.js';

/**
 * The registry as a turn reads it: rows, dialects, tools and the hooks. PluginRegistry
 * (plugins/plugin-registry.ts) is one; the snapshot names this view instead of the class, so that
 * what a turn is planned from does not import what loads plugins (the plugin API names the snapshot).
 */
export interface SnapshotRegistry {
  readonly hooks: CoreHooks;
  /** The turn hooks, typed for the core by turnHooksOf (turn/core-turn-types.ts). */
  readonly turn: TurnHooks;
  readonly rows: readonly CapabilityRow[];
  readonly toolCatalog: readonly ToolDefinition[];
  readonly dialectIds: readonly string[];
  row(routeId: string): CapabilityRow | undefined;
  dialect(id: string): (DialectDefinition & { readonly plugin: string }) | undefined;
  tool(name: string): (ToolImplementation & { readonly plugin: string }) | undefined;
}
