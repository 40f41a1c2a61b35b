import { outputRoomInWindow } from './token-estimates.js';
import type { CapabilityRow } from '../route/capability-row.js';

/** The output cap a request sends, and what the input budget keeps free for the reply. */
export interface OutputCap {
  /** The cap written at the row's cap field; null when the route sends none. */
  readonly capTokens: number | null;
  /** Tokens reserved out of the window: exactly the cap when one is sent, else the row's `reserve_tokens` (or 0). */
  readonly reservationTokens: number;
}

/**
 * The cap is the row's default, never above the route's output limit nor above what the window
 * leaves once the safety headroom and the smallest input budget fit; never below 1. The input
 * budget reserves exactly that, so the ceiling and the body agree.
 */
export function outputCapFor(row: Pick<CapabilityRow, 'output_cap' | 'context'>): OutputCap {
  const room = outputRoomInWindow(row.context.window_tokens);
  if (row.output_cap.field === null) {
    return { capTokens: null, reservationTokens: Math.min(row.output_cap.reserve_tokens ?? 0, room) };
  }
  const limits = [row.output_cap.default_tokens, room];
  if (row.context.output_limit_tokens !== null) limits.push(row.context.output_limit_tokens);
  const cap = Math.max(1, Math.min(...limits));
  return { capTokens: cap, reservationTokens: cap };
}
