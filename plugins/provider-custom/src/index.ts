import type { PluginApi, ResolvedRoute, CapabilityRow } from '@cw/core/plugin';
import { customRouteRow } from './custom-route-row.js';

/** Resolves routes the user defined in config.json with `"provider": "custom"`. */
export function register(api: PluginApi): void {
  api.hooks.resolveRoute.tap(api.plugin, (query): ResolvedRoute | undefined => {
    // Own keys only: a route id such as `constructor` must not find Object.prototype members.
    const route = Object.hasOwn(query.config.routes, query.routeId) ? query.config.routes[query.routeId] : undefined;
    if (route?.provider !== 'custom') return undefined;
    // The core re-validates this row with the same schema as registered rows.
    const row = { ...customRouteRow(query.routeId, route), plugin: api.plugin } as CapabilityRow;
    return { row, model: route.model, definedBy: 'user-config' };
  });
}
