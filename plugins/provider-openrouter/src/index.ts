import type { PluginApi } from '@cw/core/plugin';
import { OPENROUTER_ROWS } from './openrouter-capability-rows.js';

/** Registers the OpenRouter route. */
export function register(api: PluginApi): void {
  for (const row of OPENROUTER_ROWS) api.addRoute(row);
}
