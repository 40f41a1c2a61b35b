import type { CapabilityRow, PluginApi, ResolvedRoute } from '@cw/core/plugin';
import { OLLAMA_DIALECT, OLLAMA_ROWS } from './ollama-capability-rows.js';
import { ollamaCustomRow } from './ollama-custom-route.js';

export { OLLAMA_NATIVE_ROW, OLLAMA_ROWS } from './ollama-capability-rows.js';

// Ahead of @cw/provider-custom, which answers config routes of the dialects it knows and refuses others.
const CUSTOM_ROUTE_STAGE = -10;

/** Registers the native Ollama route, and answers config routes that name the Ollama dialect. */
export function register(api: PluginApi): void {
  for (const row of OLLAMA_ROWS) api.addRoute(row);
  api.hooks.resolveRoute.tap({ stage: CUSTOM_ROUTE_STAGE }, (query): ResolvedRoute | undefined => {
    // A registered route id is its owner's; config routes only ever add ids.
    if (query.row(query.routeId) !== undefined) return undefined;
    // Own keys only: a route id such as `constructor` must not find Object.prototype members.
    const route = Object.hasOwn(query.config.routes, query.routeId) ? query.config.routes[query.routeId] : undefined;
    if (route?.provider !== 'custom' || route.dialect !== OLLAMA_DIALECT) return undefined;
    // The core re-validates this row with the same schema as registered rows.
    const row = { ...ollamaCustomRow(query.routeId, route), plugin: api.plugin } as CapabilityRow;
    return { row, model: route.model, definedBy: 'user-config' };
  });
}
