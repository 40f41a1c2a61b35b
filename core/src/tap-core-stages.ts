import { turnHooksOf } from './turn/core-turn-types.js';
import { applyTurnFeatures } from './features/apply-turn-features.js';
import type { PluginRegistry } from './plugins/plugin-registry.js';
import { tapRowTable } from './route/resolve-route.js';
import { tapProjectionEngine } from './tools/project-tools.js';

const tapped = new WeakSet<PluginRegistry>();

/**
 * Taps the core's own stages into a registry's hooks — the row table, the projection engine — and
 * applies the built-in turn features; once per registry, before any request, whoever calls it.
 */
export function tapCoreStages(registry: PluginRegistry): void {
  if (tapped.has(registry)) return;
  tapped.add(registry);
  tapRowTable(registry.hooks);
  tapProjectionEngine(registry.hooks);
  applyTurnFeatures(turnHooksOf(registry));
}
