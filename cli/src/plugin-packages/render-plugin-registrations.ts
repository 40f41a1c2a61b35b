import type { PluginRegistry } from '@cw/core';

type Core = typeof import('@cw/core');

// The turn hooks a plugin can tap through `api.hooks.turn` (docs/plugin-authors.md, "Turn hooks").
const TURN_HOOKS = [
  'gate',
  'loadState',
  'prepareTurn',
  'transformsDue',
  'resolveBlock',
  'openSend',
  'closeSend',
  'stepTools',
  'afterRequest',
  'afterSave',
  'describeSession',
] as const;

/** The hooks a plugin can put taps on, directly, through `api.refineBody` (a `buildBody` tap), or on the turn. */
export type TappedHook = 'resolveRoute' | 'projectTools' | 'buildBody' | `turn.${(typeof TURN_HOOKS)[number]}`;

/** How many taps the plugin put on each hook, under its own name. */
export function hookTapCounts(registry: PluginRegistry, plugin: string): Record<TappedHook, number> {
  const count = (taps: readonly { readonly name: string }[]) => taps.filter((tap) => tap.name === plugin).length;
  const turn = Object.fromEntries(
    TURN_HOOKS.map((hook) => [`turn.${hook}`, count(registry.turn[hook].taps)] as const),
  ) as Record<`turn.${(typeof TURN_HOOKS)[number]}`, number>;
  return {
    resolveRoute: count(registry.hooks.resolveRoute.taps),
    projectTools: count(registry.hooks.projectTools.taps),
    buildBody: count(registry.hooks.buildBody.taps),
    ...turn,
  };
}

/**
 * What `cw plugins install` and `cw plugins link` print once the plugin is in place: the routes,
 * dialects, tools, body refiners, notice kinds, gate reasons and hook taps it registered, every
 * string redacted. Load problems
 * are not here: they go to stderr as warnings.
 */
export async function renderPluginRegistrations(
  core: Core,
  registry: PluginRegistry,
  plugin: { readonly name: string; readonly version: string; readonly isCwPlugin: boolean },
): Promise<string> {
  const name = core.safePackageName(plugin.name);
  const version = core.safeIdentifier(plugin.version);
  if (!plugin.isCwPlugin) return `${name} ${version} is not a cw plugin (no cw field): it registered nothing with cw\n`;
  const { routeView } = await import('../render/route-view.js');
  const loaded = registry.plugins.find((entry) => entry.name === plugin.name);
  const lines: string[] = [];
  for (const row of registry.rows.filter((entry) => entry.plugin === plugin.name)) {
    const view = routeView(core, row, 'plugin-row');
    lines.push(`route ${view.route_id}: dialect ${view.dialect}, model ${view.model.default}`);
  }
  for (const id of loaded?.dialectIds ?? []) lines.push(`dialect ${core.safeIdentifier(id)}`);
  for (const tool of loaded?.toolNames ?? []) lines.push(`tool ${core.safeIdentifier(tool)}`);
  for (const refiner of loaded?.refiners ?? []) {
    const targets = [
      ...(refiner.match.routeIds ?? []).map((id) => `route ${core.safeIdentifier(id)}`),
      ...(refiner.match.routeShapes ?? []).map((shape) => `shape ${core.safeIdentifier(shape)}`),
    ];
    lines.push(`body refiner at stage ${refiner.stage} for ${targets.join(', ')}`);
  }
  // A plugin's kinds and reasons are `<package>:<label>`: the package name is printed as the heading's.
  const label = (full: string): string => `${name}:${core.safeIdentifier(full.slice(full.lastIndexOf(':') + 1))}`;
  for (const kind of registry.turn.notices.all().filter((entry) => entry.registeredBy === plugin.name))
    lines.push(`notice kind ${label(kind.kind)}`);
  for (const reason of registry.turn.reasons.all().filter((entry) => entry.registeredBy === plugin.name))
    lines.push(`gate reason ${label(reason.reason)}`);
  const taps = Object.entries(hookTapCounts(registry, plugin.name)).filter(([, count]) => count > 0);
  lines.push(`hook taps: ${taps.length === 0 ? 'none' : taps.map(([hook, count]) => `${hook} ×${count}`).join(', ')}`);
  const head =
    loaded === undefined
      ? `${name} ${version} did not load, so it registered nothing`
      : `${name} ${version} (plugin API ${loaded.apiVersion}) registered:`;
  return loaded === undefined ? `${head}\n` : [head, ...lines.map((line) => `  ${line}`)].join('\n') + '\n';
}
