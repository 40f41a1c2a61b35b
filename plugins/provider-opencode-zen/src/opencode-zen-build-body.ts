import type { BuildContext, WireBody } from '@cw/core';
import { OPENCODE_ZEN_RESPONSES_ROW } from './opencode-zen-capability-rows.js';

/** After the core placed the reasoning control (stage 50): this tap sees the finished `reasoning` object. */
export const OPENCODE_ZEN_BODY_STAGE = 100;

/**
 * Zen's Responses route returns reasoning only as encrypted items, and only when asked; with
 * `store: false` those items are the only way to carry reasoning into the next turn. An array is
 * not a value a row can set, so this tap asks for them whenever reasoning is on.
 */
export function refineOpenCodeZenBody(body: WireBody, context: BuildContext): WireBody {
  if (context.row.route_id !== OPENCODE_ZEN_RESPONSES_ROW.route_id) return body;
  if (context.reasoning === null || context.reasoning.wireValue === 'none') return body;
  return { ...body, include: ['reasoning.encrypted_content'] };
}
