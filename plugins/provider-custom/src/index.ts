import type { PluginApi, ResolvedRoute, CapabilityRow, CustomRouteConfig } from '@cw/core/plugin';
import { customRouteRow } from './custom-route-row.js';

// Every step of an agent loop resolves the same route: its row is built once per config entry and
// frozen, so the core, which checks every row a tap answers, finds this one checked already.
const MAX_KEPT_ROWS = 16;
const rows = new Map<string, CapabilityRow>();

/** Resolves routes the user defined in config.json with `"provider": "custom"`. */
export function register(api: PluginApi): void {
  api.hooks.resolveRoute.tap(api.plugin, (query): ResolvedRoute | undefined => {
    // Own keys only: a route id such as `constructor` must not find Object.prototype members.
    const route = Object.hasOwn(query.config.routes, query.routeId) ? query.config.routes[query.routeId] : undefined;
    if (route?.provider !== 'custom') return undefined;
    // The core re-validates this row with the same schema as registered rows.
    return { row: rowFor(query.routeId, route, api.plugin), model: route.model, definedBy: 'user-config' };
  });
}

/** The row of one config entry, from memory when the same entry was turned into a row before. */
function rowFor(routeId: string, route: CustomRouteConfig, plugin: string): CapabilityRow {
  const key = JSON.stringify([routeId, plugin, route]);
  let row = rows.get(key);
  if (row === undefined) {
    // A copy, so freezing it leaves the module's own defaults as they are.
    row = deepFreeze(structuredClone({ ...customRouteRow(routeId, route), plugin }) as CapabilityRow);
    if (rows.size >= MAX_KEPT_ROWS) rows.clear();
    rows.set(key, row);
  }
  return row;
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
