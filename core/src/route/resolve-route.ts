import type { CwConfig } from '../config/cw-config.js';
import type { CoreHooks } from '../hooks.js';
import { capabilityRowSchema, type CapabilityRow } from './capability-row.js';

/** What route resolution is asked: which route id, under which config, with which rows registered. */
export interface RouteQuery {
  readonly routeId: string;
  readonly config: CwConfig;
  readonly row: (routeId: string) => CapabilityRow | undefined;
}

/** A fixed route, resolved to its capability row and the model the user selected on it. */
export interface ResolvedRoute {
  readonly row: CapabilityRow;
  /** The model id the user selected (or the row's default), before wire mapping. */
  readonly model: string;
  /** Whether the route id came from a plugin's row table or from the user's config. */
  readonly definedBy: 'plugin-row' | 'user-config';
}

/** Route resolution failed; the message is raw and is redacted before it is printed. */
export class RoutePlanError extends Error {
  override readonly name = 'RoutePlanError';
}

/** The core's own resolveRoute tap: a route id registered as a row resolves to that row. */
export function tapRowTable(hooks: CoreHooks): void {
  hooks.resolveRoute.tap({ name: 'cw:row-table', stage: 100 }, (query) => {
    const row = query.row(query.routeId);
    if (!row) return undefined;
    return { row, model: query.config.model ?? row.model.default, definedBy: 'plugin-row' };
  });
}

/** Runs the resolveRoute hook and re-validates what a tap answered, since a tap may build a row from config. */
export function resolveRoute(hooks: CoreHooks, query: RouteQuery): ResolvedRoute {
  let resolved: ResolvedRoute | undefined;
  try {
    resolved = hooks.resolveRoute.call(query);
  } catch (error) {
    // A plugin's tap refused the route (e.g. a config entry it cannot serve): that is a plan failure.
    throw new RoutePlanError(`route ${query.routeId} could not be resolved: ${(error as Error).message}`);
  }
  if (!resolved) {
    throw new RoutePlanError(
      `route ${query.routeId} is not registered by any loaded plugin; run cw routes to list the routes`,
    );
  }
  const { plugin, ...data } = resolved.row;
  const checked = capabilityRowSchema.safeParse(data);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new RoutePlanError(
      `route ${query.routeId} resolved to an invalid row (field ${issue?.path.join('.') || 'row'}: ${issue?.message ?? 'invalid'})`,
    );
  }
  return { ...resolved, row: { ...checked.data, plugin } };
}

/** The id that goes on the wire for the selected model on this route. */
export function wireModelFor(route: ResolvedRoute): string {
  // Own keys only: a model id such as `constructor` must not find Object.prototype members.
  const map = route.row.model.wire_map;
  return Object.hasOwn(map, route.model) ? (map[route.model] as string) : route.model;
}
