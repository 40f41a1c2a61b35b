import { setPath } from './plan-reasoning.js';
import type { BuildContext, WireBody } from './wire-body.js';

/** The name of the core's own buildBody tap. */
export const REASONING_PLACEMENT_TAP = 'cw:reasoning-placement';

/**
 * The buildBody stage at which the core writes the reasoning control: after the dialect built the
 * body, before route refiners (which must see, and may refine, the placed control).
 */
export const REASONING_PLACEMENT_STAGE = 50;

/**
 * Writes the reasoning plan into the body at the row's key path. Placement is data, so the core does
 * it for every dialect alike: conflicting keys go, the tier's companion paths are set, then the value.
 */
export function placeReasoning(body: WireBody, context: BuildContext): WireBody {
  const control = context.row.reasoning;
  const plan = context.reasoning;
  if (!plan || !control) return body;
  for (const param of control.conflicting_params) delete body[param];
  for (const [path, value] of Object.entries(plan.alsoSet)) setPath(body, path, value);
  if (plan.wireValue !== null) setPath(body, plan.keyPath, plan.wireValue);
  return body;
}
