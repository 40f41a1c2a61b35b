import type { PluginApi } from '@cw/core/plugin';
import { EXAMPLE_ROW } from './example-capability-rows.js';
import { EXAMPLE_BODY_MATCH, EXAMPLE_BODY_STAGE, refineExampleBody } from './example-refine-body.js';

/** Registers this plugin's route and its body refiner. cw calls it once per process, before any request. */
export function register(api: PluginApi): void {
  api.addRoute(EXAMPLE_ROW);
  api.refineBody(EXAMPLE_BODY_MATCH, refineExampleBody, { stage: EXAMPLE_BODY_STAGE });
}
