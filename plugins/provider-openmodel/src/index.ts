import type { PluginApi } from '@cw/core/plugin';
import { OPENMODEL_BODY_MATCH, OPENMODEL_BODY_STAGE, refineOpenModelBody } from './openmodel-build-body.js';
import { OPENMODEL_ROWS } from './openmodel-capability-rows.js';

/** Registers OpenModel's route and the thinking-budget fit data cannot express. */
export function register(api: PluginApi): void {
  for (const row of OPENMODEL_ROWS) api.addRoute(row);
  api.refineBody(OPENMODEL_BODY_MATCH, refineOpenModelBody, { stage: OPENMODEL_BODY_STAGE });
}
