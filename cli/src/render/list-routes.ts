import type { CwSnapshot } from '@cw/core';
import type { CapabilityRow } from '@cw/core/plugin';

type Core = typeof import('@cw/core');

/** A route cw can resolve, with where it came from. */
export interface ListedRoute {
  readonly row: CapabilityRow;
  readonly definedBy: 'plugin-row' | 'user-config';
}

/** A configured route that did not resolve; the detail is raw and is redacted before printing. */
export interface UnlistedRoute {
  readonly routeId: string;
  readonly detail: string;
}

/**
 * Every route a turn could use: the rows plugins registered, then the routes the user configured,
 * resolved through the same resolveRoute hook a turn uses (a configured id shadows a row of that id).
 */
export function listRoutes(core: Core, snapshot: CwSnapshot): { routes: ListedRoute[]; unresolved: UnlistedRoute[] } {
  const { registry, config } = snapshot;
  const routes: ListedRoute[] = registry.rows.map((row) => ({ row, definedBy: 'plugin-row' }));
  const unresolved: UnlistedRoute[] = [];
  // A route still being written resolves to the error that says what it misses.
  for (const routeId of [...Object.keys(config.routes), ...Object.keys(config.incompleteRoutes ?? {})]) {
    try {
      const resolved = core.resolveRoute(registry.hooks, { routeId, config, row: (id) => registry.row(id) });
      const listed: ListedRoute = { row: resolved.row, definedBy: resolved.definedBy };
      const shadowed = routes.findIndex((entry) => entry.row.route_id === routeId);
      if (shadowed === -1) routes.push(listed);
      else routes[shadowed] = listed;
    } catch (error) {
      unresolved.push({ routeId, detail: error instanceof Error ? error.message : String(error) });
    }
  }
  return { routes, unresolved };
}
