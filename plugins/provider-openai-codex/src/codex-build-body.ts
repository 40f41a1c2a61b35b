import type { BuildContext, RouteMatch, WireBody } from '@cw/core/plugin';
import { CODEX_ROW } from './codex-capability-rows.js';

/** After the core placed the reasoning control (stage 50). */
export const CODEX_BODY_STAGE = 100;

/** The routes the refinement applies to: the Codex route shape this plugin registers. */
export const CODEX_BODY_MATCH: RouteMatch = { routeShapes: [CODEX_ROW.route_shape] };

/**
 * Codex keeps no server-side state (`store: false`), so reasoning survives to the next turn only as
 * encrypted items, which the backend returns only when `include` asks for them. An array is not a
 * value a row can set, so this refiner adds it.
 */
export function refineCodexBody(body: WireBody, context: BuildContext): WireBody {
  if (context.reasoning === null) return body;
  return { ...body, include: ['reasoning.encrypted_content'] };
}
