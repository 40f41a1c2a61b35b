import type { PluginRegistry } from './plugin-registry.js';
import { safeErrorText } from '../redaction/safe-error-text.js';
import { resolveRoute } from '../route/resolve-route.js';
import { formatConfigPath } from '../config/config-key-path.js';
import { type ConfigProblem, describeFound } from '../config/config-problems.js';
import { type ConfigText, nodeAt, positionAt } from '../config/config-text.js';
import { type CwConfig, configFieldNames } from '../config/cw-config.js';

/**
 * What the schema cannot know and the loaded plugins can: each configured route's dialect is one a
 * plugin registered and the route resolves, and the selected route exists. Every problem is placed
 * at its field, as schema problems are.
 */
export function configRouteProblems(
  config: CwConfig,
  parsed: ConfigText,
  registry: PluginRegistry,
  defaultRouteId: string,
): ConfigProblem[] {
  const names = configFieldNames();
  const at = (path: readonly (string | number)[]): ConfigProblem['position'] => {
    const node = nodeAt(parsed.tree, path);
    return node === undefined ? null : positionAt(parsed.text, node.offset);
  };
  const problems: ConfigProblem[] = [];
  for (const [routeId, route] of Object.entries(config.routes)) {
    if (!registry.dialectIds.includes(route.dialect)) {
      problems.push({
        position: at(['routes', routeId, 'dialect']),
        field: formatConfigPath(['routes', routeId, 'dialect'], names),
        message: `not a dialect any loaded plugin speaks; found ${describeFound(route.dialect)}; accepted: ${registry.dialectIds.join(', ')}`,
      });
      continue;
    }
    try {
      resolveRoute(registry.hooks, { routeId, config, row: (id) => registry.row(id) });
    } catch (error) {
      problems.push({
        position: at(['routes', routeId]),
        field: formatConfigPath(['routes', routeId], names),
        message: `does not resolve: ${safeErrorText(error instanceof Error ? error.message : String(error))}`,
      });
    }
  }
  const selected = config.route;
  // A selected route still being written is not unknown: using it says what it misses.
  const configured =
    Object.hasOwn(config.routes, selected ?? '') || Object.hasOwn(config.incompleteRoutes ?? {}, selected ?? '');
  if (selected !== undefined && registry.row(selected) === undefined && !configured) {
    const known = [...registry.rows.map((row) => row.route_id), ...Object.keys(config.routes)];
    problems.push({
      position: at(['route']),
      field: 'route',
      message: `no such route; found ${describeFound(selected)}; accepted: ${known.map((id) => formatConfigPath([id], names)).join(', ')} (cw routes lists them; the default is ${defaultRouteId})`,
    });
  }
  return problems.sort(
    (a, b) =>
      (a.position?.line ?? Infinity) - (b.position?.line ?? Infinity) ||
      (a.position?.column ?? 0) - (b.position?.column ?? 0),
  );
}
