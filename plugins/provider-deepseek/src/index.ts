import type { PluginApi } from '@cw/core/plugin';
import { DEEPSEEK_ROWS } from './deepseek-capability-rows.js';

/** Registers DeepSeek's routes. */
export function register(api: PluginApi): void {
  for (const row of DEEPSEEK_ROWS) api.addRoute(row);
}
