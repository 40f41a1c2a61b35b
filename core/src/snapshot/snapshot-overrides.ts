import type { CwConfig } from '../config/cw-config.js';
import type { PluginRegistry } from '../plugins/plugin-registry.js';
import type { ReasoningSelection } from '../route/capability-row.js';
import type { SessionSelection } from '../state/select-session.js';

/** What the command line sets for one command, over config: `-r`, `-m`, `--reasoning`, `-s`/`-n`/`-c`. */
export interface SnapshotOverrides {
  readonly route?: string;
  /** A model id, or `route/model` when the part before the first `/` is a route id and no route is given. */
  readonly model?: string;
  readonly reasoning?: ReasoningSelection;
  readonly session?: SessionSelection;
}

/** An override that config would refuse; the message names the flag, never the value. */
export class OverrideError extends Error {
  override readonly name = 'OverrideError';
  readonly exitCode = 2;
  readonly safeMessage: string;
  constructor(message: string) {
    super(message);
    this.safeMessage = message;
  }
}

// The same bounds config.json puts on `route` and `model`.
const MAX_ROUTE = 64;
const MAX_MODEL = 256;

/**
 * The config a turn is planned from once the flags are applied: the route, model and reasoning the
 * plan reads, so a preview and a send given the same flags plan the same request. On a route the
 * user configured, the model flag replaces that route's own `model`.
 */
export function applyOverrides(
  config: CwConfig,
  overrides: SnapshotOverrides,
  registry: PluginRegistry,
  defaultRouteId: string,
): CwConfig {
  const current = overrides.route ?? config.route ?? defaultRouteId;
  const { route, model } = splitRouteModel(overrides, {
    isRoute: (id) =>
      registry.row(id) !== undefined ||
      Object.hasOwn(config.routes, id) ||
      Object.hasOwn(config.incompleteRoutes ?? {}, id),
    // A model the current route lists by its full id (`deepseek/deepseek-chat` on a gateway) stays whole.
    listedWhole: (id) => registry.row(current)?.model.catalog.includes(id) === true,
  });
  if (route !== undefined && (route === '' || route.length > MAX_ROUTE))
    throw new OverrideError('`--route` takes a route id of 1 to 64 characters; cw routes lists them');
  if (model !== undefined && (model === '' || model.length > MAX_MODEL))
    throw new OverrideError('`--model` takes a model id of 1 to 256 characters');
  const next: CwConfig = {
    ...config,
    ...(route === undefined ? {} : { route }),
    ...(model === undefined ? {} : { model }),
    ...(overrides.reasoning === undefined ? {} : { reasoning: overrides.reasoning }),
  };
  const routeId = next.route;
  const configured =
    routeId !== undefined && Object.hasOwn(config.routes, routeId) ? config.routes[routeId] : undefined;
  if (model === undefined || routeId === undefined || configured === undefined) return next;
  return { ...next, routes: { ...config.routes, [routeId]: { ...configured, model } } };
}

/**
 * `-m deepseek/deepseek-reasoner` selects both, as AI SDK and LiteLLM users write it; a model id
 * that merely has a slash (`meta-llama/Llama-3.3-70B-Instruct`) stays whole, because its first part
 * is no route. With `-r` given, `-m route/model` is split only when its route part is that route.
 */
function splitRouteModel(
  overrides: SnapshotOverrides,
  known: { isRoute: (id: string) => boolean; listedWhole: (model: string) => boolean },
): { route: string | undefined; model: string | undefined } {
  const { route, model } = overrides;
  const slash = model?.indexOf('/') ?? -1;
  if (model === undefined || slash <= 0 || known.listedWhole(model)) return { route, model };
  const prefix = model.slice(0, slash);
  const rest = model.slice(slash + 1);
  if (rest === '' || !known.isRoute(prefix) || (route !== undefined && route !== prefix)) return { route, model };
  return { route: prefix, model: rest };
}
