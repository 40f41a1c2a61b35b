import type { PluginApi } from '@cw/core/plugin';
import { MINIMAX_ROWS } from './minimax-capability-rows.js';

/** Registers the MiniMax route. */
export function register(api: PluginApi): void {
  for (const row of MINIMAX_ROWS) api.addRoute(row);
}
