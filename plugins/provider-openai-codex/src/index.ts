import type { PluginApi } from '@cw/core';
import { CODEX_BODY_STAGE, refineCodexBody } from './codex-build-body.js';
import { CODEX_ROWS } from './codex-capability-rows.js';

/** Registers the Codex route and the Responses refinement data cannot express. */
export function register(api: PluginApi): void {
  for (const row of CODEX_ROWS) api.addRoute(row);
  api.hooks.buildBody.for('openai-responses').tap({ name: api.plugin, stage: CODEX_BODY_STAGE }, refineCodexBody);
}
