import type { PluginApi } from '@cw/core/plugin';
import { ZAI_ROWS } from './zai-capability-rows.js';

/** Registers the Z.ai route. */
export function register(api: PluginApi): void {
  for (const row of ZAI_ROWS) api.addRoute(row);
}
