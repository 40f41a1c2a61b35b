import type { PluginApi } from '@cw/core/plugin';
import { CODEX_BODY_MATCH, CODEX_BODY_STAGE, refineCodexBody } from './codex-build-body.js';
import { CODEX_ROWS } from './codex-capability-rows.js';

/** Registers the Codex route and the Responses refinement data cannot express. */
export function register(api: PluginApi): void {
  for (const row of CODEX_ROWS) api.addRoute(row);
  api.refineBody(CODEX_BODY_MATCH, refineCodexBody, { stage: CODEX_BODY_STAGE });
}
