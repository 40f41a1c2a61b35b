import type { CapabilityRow, PluginApi, ResolvedRoute } from '@cw/core/plugin';
import { geminiCustomRow } from './gemini-custom-route.js';
import { GEMINI_DIALECT, GOOGLE_ROWS } from './google-capability-rows.js';

export { GEMINI_JSON_SCHEMA } from './gemini-json-schema.js';
export { GEMINI_ROW, GOOGLE_ROWS } from './google-capability-rows.js';

// Ahead of @cw/provider-custom, which answers config routes of the dialects it knows and refuses others.
const CUSTOM_ROUTE_STAGE = -10;

/** Registers the Gemini route, and answers config routes that name the Gemini dialect. */
export function register(api: PluginApi): void {
  for (const row of GOOGLE_ROWS) api.addRoute(row);
  api.hooks.resolveRoute.tap({ stage: CUSTOM_ROUTE_STAGE }, (query): ResolvedRoute | undefined => {
    // A registered route id is its owner's; config routes only ever add ids.
    if (query.row(query.routeId) !== undefined) return undefined;
    // Own keys only: a route id such as `constructor` must not find Object.prototype members.
    const route = Object.hasOwn(query.config.routes, query.routeId) ? query.config.routes[query.routeId] : undefined;
    if (route?.provider !== 'custom' || route.dialect !== GEMINI_DIALECT) return undefined;
    // The core re-validates this row with the same schema as registered rows.
    const row = { ...geminiCustomRow(query.routeId, route), plugin: api.plugin } as CapabilityRow;
    return { row, model: route.model, definedBy: 'user-config' };
  });
}
