import type { PluginApi } from '@cw/core';
import { OPENMODEL_BODY_STAGE, refineOpenModelBody } from './openmodel-build-body.js';
import { OPENMODEL_ROWS } from './openmodel-capability-rows.js';

/** Registers OpenModel's route and the thinking-budget fit data cannot express. */
export function register(api: PluginApi): void {
  for (const row of OPENMODEL_ROWS) api.addRoute(row);
  api.hooks.buildBody
    .for('anthropic-messages')
    .tap({ name: api.plugin, stage: OPENMODEL_BODY_STAGE }, refineOpenModelBody);
}
