import type { UnavailableReason } from './unavailable-reason.js';

// What a person can do about a reason that stops cw send; reasons a send never meets need none.
const REMEDY: Partial<Record<UnavailableReason, string>> = {
  'goal-token-budget-exhausted':
    "the session's goal has used up its token budget; raise it with cw goal set --token-budget <larger>, or cw goal clear",
  'goal-state-not-snapshottable':
    "the session's goal file cannot be read; see cw goal show, or remove it with cw goal clear",
};

/**
 * A turn that cannot go out as it stands, for a reason the plan names (pending state, unknowable MCP
 * tools, no prompt). The message is built from cw's words and an already redacted detail.
 */
export class TurnBlockedError extends Error {
  override readonly name = 'TurnBlockedError';
  readonly exitCode = 1;
  /** The message as printed: cw's words, a typed reason and a detail that was redacted when it was made. */
  readonly safeMessage: string;
  constructor(
    readonly reason: UnavailableReason,
    readonly detail: string | null,
  ) {
    const remedy = REMEDY[reason];
    super(
      `this turn cannot be sent: ${reason}${detail ? ` (${detail})` : ''}${remedy ? `: ${remedy}; the request was not sent` : ''}`,
    );
    this.safeMessage = this.message;
  }
}
