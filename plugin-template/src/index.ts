import type { PluginApi } from '@cw/core';
import { EXAMPLE_ROW } from './example-capability-rows.js';

/** Registers this plugin's routes with cw. cw calls it once per process, before any request. */
export function register(api: PluginApi): void {
  api.addRoute(EXAMPLE_ROW);
}
