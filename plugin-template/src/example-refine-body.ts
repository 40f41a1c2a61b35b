import type { RouteMatch, WireBody } from '@cw/core/plugin';
import { arrayAt } from '@cw/plugin-kit';
import { EXAMPLE_ROW } from './example-capability-rows.js';

/** Runs after the core placed the reasoning control (stage 50), so the refiner sees the final control. */
export const EXAMPLE_BODY_STAGE = 100;

/** The refiner applies to this plugin's own route; the core never calls it for another. */
export const EXAMPLE_BODY_MATCH: RouteMatch = { routeIds: [EXAMPLE_ROW.route_id] };

/**
 * The example provider runs one tool call per reply, and says so only when the body offers tools.
 * A row cannot say this: the key depends on another value of the body. Reads only its argument.
 */
export function refineExampleBody(body: WireBody): WireBody {
  if (arrayAt(body, 'tools').length === 0) return body;
  return { ...body, parallel_tool_calls: false };
}
