import type { BuildContext, RouteMatch, WireBody } from '@cw/core/plugin';
import { OPENCODE_ZEN_RESPONSES_ROW, OPENCODE_ZEN_ROW } from './opencode-zen-capability-rows.js';

/** After the core placed the reasoning control (stage 50): this refiner sees the finished `reasoning` object. */
export const OPENCODE_ZEN_BODY_STAGE = 100;

/**
 * The routes the refinement applies to: the Responses route, and the model-aware route (whose chat
 * and Messages models send no reasoning control, so the refiner leaves their bodies alone). Not
 * the chat route, which shares the shape.
 */
export const OPENCODE_ZEN_BODY_MATCH: RouteMatch = {
  routeIds: [OPENCODE_ZEN_RESPONSES_ROW.route_id, OPENCODE_ZEN_ROW.route_id],
};

/**
 * Zen's Responses route returns reasoning only as encrypted items, and only when asked; with
 * `store: false` those items are the only way to carry reasoning into the next turn. An array is
 * not a value a row can set, so this refiner asks for them whenever reasoning is on.
 */
export function refineOpenCodeZenBody(body: WireBody, context: BuildContext): WireBody {
  if (context.reasoning === null || context.reasoning.wireValue === 'none') return body;
  return { ...body, include: ['reasoning.encrypted_content'] };
}
