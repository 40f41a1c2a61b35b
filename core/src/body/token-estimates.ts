import type { ByteClasses } from './byte-classes.js';

// The offline rule: about 4 bytes a token, and a 5% margin on the whole-body total.
const BYTES_PER_TOKEN = 4;
const MARGIN_PERCENT = 5;
// Kept free between the input and the window edge, as production does, so a turn never lands exactly on it.
const SAFETY_HEADROOM_TOKENS = 1_024;
const MIN_INPUT_BUDGET_TOKENS = 1_024;

/**
 * Offline token estimates per byte class; never a provider count. The manifest reports them as they
 * are (its `body.estimates`, manifest-schema.ts), so a field added here must be added there too.
 */
export interface TokenEstimates {
  basis: 'offline-estimate';
  system: number;
  tool_schemas: number;
  messages: number;
  /** Subset of messages, for attribution; never added again. */
  tool_results: number;
  /** Subset of messages, for attribution; never added again. */
  attachments: number;
  framing: number;
  /** ceil(body bytes / 4) plus a 5% margin, from the whole body. */
  total_conservative: number;
}

/** Estimates each class as ceil(bytes / 4); the total is estimated from the whole body, plus the margin. */
export function estimateTokens(classes: ByteClasses): TokenEstimates {
  const whole = tokens(classes.body);
  return {
    basis: 'offline-estimate',
    system: tokens(classes.system),
    tool_schemas: tokens(classes.toolSchemas),
    messages: tokens(classes.messages),
    tool_results: tokens(classes.toolResults),
    attachments: tokens(classes.attachments),
    framing: tokens(classes.framing),
    total_conservative: whole + Math.floor((whole * MARGIN_PERCENT) / 100),
  };
}

function tokens(bytes: number): number {
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/** The most output a window can reserve: what is left once the safety headroom and the smallest input budget fit. */
export function outputRoomInWindow(windowTokens: number): number {
  return Math.max(0, windowTokens - (SAFETY_HEADROOM_TOKENS + MIN_INPUT_BUDGET_TOKENS));
}

/**
 * The input budget ceiling: the window minus exactly the output reservation (already fitted to the
 * window, see outputRoomInWindow) minus the safety headroom, capped by a route input limit when the
 * route has one.
 */
export function inputBudgetCeiling(windowTokens: number, outputReservation: number, inputLimit: number | null): number {
  const ceiling = Math.max(0, windowTokens - outputReservation - SAFETY_HEADROOM_TOKENS);
  return inputLimit !== null && inputLimit > 0 ? Math.min(ceiling, inputLimit) : ceiling;
}

/** Signed headroom: negative means the request does not fit, and is never clamped to zero. */
export function inputHeadroom(ceiling: number, estimate: TokenEstimates): number {
  return ceiling - estimate.total_conservative;
}
