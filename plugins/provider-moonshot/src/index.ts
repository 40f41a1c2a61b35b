import type { PluginApi } from '@cw/core/plugin';
import { MOONSHOT_ROWS } from './moonshot-capability-rows.js';

/** Registers the Moonshot and Kimi Code routes. */
export function register(api: PluginApi): void {
  for (const row of MOONSHOT_ROWS) api.addRoute(row);
}
