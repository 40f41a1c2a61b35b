import type { PluginApi } from '@cw/core/plugin';
import { XAI_ROWS } from './xai-capability-rows.js';

/** Registers the xAI route. */
export function register(api: PluginApi): void {
  for (const row of XAI_ROWS) api.addRoute(row);
}
