import type { RouteMatch, WireBody } from '@cw/core/plugin';
import { isJsonObject } from '@cw/plugin-kit';
import { OPENMODEL_ROW } from './openmodel-capability-rows.js';

/** After the core placed the reasoning control (stage 50): this refiner adjusts the budget it wrote. */
export const OPENMODEL_BODY_STAGE = 100;

/** The routes the refinement applies to: OpenModel's own route; other Anthropic routes take the budget as is. */
export const OPENMODEL_BODY_MATCH: RouteMatch = { routeIds: [OPENMODEL_ROW.route_id] };

// Anthropic's extended thinking: the budget is at least 1,024 tokens and strictly below max_tokens.
const MIN_BUDGET_TOKENS = 1_024;

/**
 * Fits the thinking budget into this request: `min(tier budget, max_tokens - 1)`, and no thinking at
 * all when that leaves less than the minimum. It depends on the output cap of the request, which a
 * row cannot relate to another value, so it is code.
 */
export function refineOpenModelBody(body: WireBody): WireBody {
  const thinking = body['thinking'];
  const maxTokens = body['max_tokens'];
  if (!isJsonObject(thinking) || typeof maxTokens !== 'number') return body;
  const budget = thinking['budget_tokens'];
  if (typeof budget !== 'number') return body;
  const fitted = Math.min(budget, maxTokens - 1);
  if (fitted < MIN_BUDGET_TOKENS) {
    const { thinking: _dropped, ...rest } = body;
    return rest;
  }
  return fitted === budget ? body : { ...body, thinking: { ...thinking, budget_tokens: fitted } };
}
