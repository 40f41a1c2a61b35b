import type { CwSnapshot } from '../../snapshot/snapshot.js';

/** The config `route` value that turns auto routing on. */
export const AUTO_ROUTE = 'auto';

/**
 * The snapshot planned on one route auto routing chose: a fixed route with its default model, and
 * auto routing no longer pending.
 */
export function onRoute(snapshot: CwSnapshot, routeId: string): CwSnapshot {
  const { model: _model, ...config } = snapshot.config;
  return { ...snapshot, config: { ...config, route: routeId }, pending: { ...snapshot.pending, autoRouting: false } };
}
