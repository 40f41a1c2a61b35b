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
    return answerFor(query.routeId, route, api.plugin);
  });
}

/** The inputs a row was built from: the route's own fields that customRouteRow reads. */
interface BuiltRow {
  readonly routeId: string;
  readonly plugin: string;
  readonly dialect: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKeyEnv: string | undefined;
  readonly contextWindow: number | undefined;
  readonly maxOutputTokens: number | undefined;
  /** The answer made of the row, given again as it is: the core stamps each answer once (route/answered-by.ts). */
  readonly answer: ResolvedRoute;
}

// The same config entry, looked up again, is found by identity and its fields compared one by one:
// serializing it for a key costs more than the rest of resolving the route (docs/performance.md).
const byEntry = new WeakMap<CustomRouteConfig, BuiltRow>();

/** The answer for one config entry, from memory when the same entry was turned into a row before. */
function answerFor(routeId: string, route: CustomRouteConfig, plugin: string): ResolvedRoute {
  const built = byEntry.get(route);
  if (built !== undefined && builtFrom(built, routeId, route, plugin)) return built.answer;
  const key = JSON.stringify([routeId, plugin, route]);
  let row = rows.get(key);
  if (row === undefined) {
    // A copy, so freezing it leaves the module's own defaults as they are.
    row = deepFreeze(structuredClone({ ...customRouteRow(routeId, route), plugin }) as CapabilityRow);
    if (rows.size >= MAX_KEPT_ROWS) rows.clear();
    rows.set(key, row);
  }
  const answer: ResolvedRoute = Object.freeze({ row, model: route.model, definedBy: 'user-config' });
  byEntry.set(route, {
    routeId,
    plugin,
    dialect: route.dialect,
    baseUrl: route.base_url,
    model: route.model,
    apiKeyEnv: route.api_key_env,
    contextWindow: route.context_window,
    maxOutputTokens: route.max_output_tokens,
    answer,
  });
  return answer;
}

/** Whether a kept row was built from these inputs: a config entry is a plain object anyone may change. */
function builtFrom(built: BuiltRow, routeId: string, route: CustomRouteConfig, plugin: string): boolean {
  return (
    built.routeId === routeId &&
    built.plugin === plugin &&
    built.dialect === route.dialect &&
    built.baseUrl === route.base_url &&
    built.model === route.model &&
    built.apiKeyEnv === route.api_key_env &&
    built.contextWindow === route.context_window &&
    built.maxOutputTokens === route.max_output_tokens
  );
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
