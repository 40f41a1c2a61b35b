import type { BuildContext, WireBody } from '@cw/core';
import { CODEX_ROW } from './codex-capability-rows.js';

/** After the core placed the reasoning control (stage 50). */
export const CODEX_BODY_STAGE = 100;

/**
 * Codex keeps no server-side state (`store: false`), so reasoning survives to the next turn only as
 * encrypted items, which the backend returns only when `include` asks for them. An array is not a
 * value a row can set: this tap adds it on the route shape this plugin registered.
 */
export function refineCodexBody(body: WireBody, context: BuildContext): WireBody {
  if (context.row.route_shape !== CODEX_ROW.route_shape || context.reasoning === null) return body;
  return { ...body, include: ['reasoning.encrypted_content'] };
}
