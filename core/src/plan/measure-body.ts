import { byteClasses, type ByteClasses } from '../body/byte-classes.js';
import { estimateTokens, inputBudgetCeiling, inputHeadroom, type TokenEstimates } from '../body/token-estimates.js';
import type { PreparedOutboundRequest } from '../prepare-outbound-request.js';

/** Byte classes, estimates and the input budget of a prepared body: what decides whether it fits. */
export interface MeasuredBody {
  readonly classes: ByteClasses;
  readonly estimates: TokenEstimates;
  /** The input budget ceiling: the window less exactly the output reservation, capped by the route's input limit. */
  readonly ceiling: number;
  /** The ceiling less the conservative estimate of the whole body; negative means the turn does not fit. */
  readonly headroom: number;
}

/** Measures a prepared body with its dialect's layout. */
export function measureBody(prepared: PreparedOutboundRequest): MeasuredBody {
  const { row } = prepared.route;
  const classes = byteClasses(prepared.body, prepared.layout, prepared.canonical);
  const estimates = estimateTokens(classes);
  const ceiling = inputBudgetCeiling(
    row.context.window_tokens,
    prepared.outputReservationTokens,
    row.context.input_limit_tokens,
  );
  return { classes, estimates, ceiling, headroom: inputHeadroom(ceiling, estimates) };
}
