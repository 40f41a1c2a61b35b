import type { PluginApi } from '@cw/core/plugin';
import { ANTHROPIC_ROWS } from './anthropic-capability-rows.js';

/** Registers the Anthropic route. */
export function register(api: PluginApi): void {
  for (const row of ANTHROPIC_ROWS) api.addRoute(row);
}
