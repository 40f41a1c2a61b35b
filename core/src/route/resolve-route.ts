import { SmallLru } from '../canonical/small-lru.js';
import type { CoreHooks } from '../hooks.js';
import { answeredByOf } from './answered-by.js';
import { checkAnsweredRow } from './checked-route-row.js';
import { wireModelOf } from './model-facts.js';
import type { ResolvedRoute, RouteQuery } from './route-types.js';

/** Route resolution failed; the message is raw and is redacted before it is printed. */
export class RoutePlanError extends Error {
  override readonly name = 'RoutePlanError';
}

const ROW_TABLE_TAP = 'cw:row-table';

/** The core's own resolveRoute tap: a route id registered as a row resolves to that row. */
export function tapRowTable(hooks: CoreHooks): void {
  hooks.resolveRoute.tap({ name: ROW_TABLE_TAP, stage: 100 }, (query) => {
    const row = query.row(query.routeId);
    if (!row) return undefined;
    return { row, model: query.config.model ?? row.model.default, definedBy: 'plugin-row' };
  });
}

/**
 * Runs the resolveRoute hook and re-validates what a tap answered, since a tap may build a row from
 * config. A tap may answer for a route it does not own only if it keeps the owner's endpoint origin
 * and key variable: a key the user set for one host must never be sent to another.
 */
export function resolveRoute(hooks: CoreHooks, query: RouteQuery): ResolvedRoute {
  const missing = Object.hasOwn(query.config.incompleteRoutes ?? {}, query.routeId)
    ? query.config.incompleteRoutes?.[query.routeId]
    : undefined;
  if (missing !== undefined) {
    // The user's route is still being written: say what it needs rather than what else might answer.
    // Plain words only: the message crosses the error-text redaction wherever it is printed.
    throw new RoutePlanError(
      `route ${query.routeId} in config.json is not complete; it still needs ${missing.join(', ')}; set each with cw config set`,
    );
  }
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
  const checked = checkAnsweredRow(resolved.row, resolved.model);
  if (!checked.ok && checked.failed === 'row') {
    const { issue } = checked;
    throw new RoutePlanError(
      `route ${query.routeId} resolved to an invalid row (field ${issue?.path.join('.') || 'row'}: ${issue?.message ?? 'invalid'})`,
    );
  }
  // The tap's own name, not what its row claims: registered_by must say who really answered.
  const answeredBy = answeredByOf(resolved) ?? resolved.row.plugin;
  const owner = ownerOf(query);
  if (owner !== null && answeredBy !== owner.plugin) {
    const sameOrigin = originOf(checked.base.endpoint.base_url) === owner.origin;
    if (!sameOrigin || checked.base.auth.api_key_env !== owner.apiKeyEnv) {
      throw new RoutePlanError(
        `plugin ${answeredBy} tried to move route ${query.routeId} to another endpoint or key variable; ` +
          'remove or update that plugin (cw plugins)',
      );
    }
  }
  // The model's own facts last: an override never changes the base URL or the key, so the check above holds.
  if (!checked.ok) {
    const { issue } = checked;
    throw new RoutePlanError(
      `route ${query.routeId} with model ${resolved.model} resolves to an invalid row (field ${issue?.path.join('.') || 'row'}: ${issue?.message ?? 'invalid'})`,
    );
  }
  const plugin = answeredBy === ROW_TABLE_TAP ? (owner?.plugin ?? resolved.row.plugin) : answeredBy;
  const facts = checked.facts;
  return {
    row: checked.rowFor(plugin),
    model: resolved.model,
    definedBy: owner?.definedBy ?? resolved.definedBy,
    modelFacts: { match: facts.match, provenance: facts.provenance },
  };
}

/** Who a route id belongs to before any tap answers: the plugin that registered its row, or the user's config. */
function ownerOf(query: RouteQuery): {
  plugin: string | null;
  origin: string | null;
  apiKeyEnv: string | null;
  definedBy: ResolvedRoute['definedBy'];
} | null {
  const row = query.row(query.routeId);
  if (row) {
    return {
      plugin: row.plugin,
      origin: originOf(row.endpoint.base_url),
      apiKeyEnv: row.auth.api_key_env,
      definedBy: 'plugin-row',
    };
  }
  const configured = Object.hasOwn(query.config.routes, query.routeId) ? query.config.routes[query.routeId] : undefined;
  if (configured) {
    // The user's own route: whichever plugin serves it must keep the host and key variable they wrote.
    return {
      plugin: null,
      origin: originOf(configured.base_url),
      apiKeyEnv: configured.api_key_env ?? null,
      definedBy: 'user-config',
    };
  }
  return null;
}

// Every step of a loop compares the same one or two base URLs: each is parsed once per process.
const origins = new SmallLru<string, string | null>(8);

function originOf(url: string): string | null {
  const known = origins.get(url);
  if (known !== undefined) return known;
  let origin: string | null;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = null;
  }
  origins.set(url, origin);
  return origin;
}

/** The id that goes on the wire for the selected model on this route. */
export function wireModelFor(route: ResolvedRoute): string {
  return wireModelOf(route.row, route.model);
}
