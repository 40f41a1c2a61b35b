import type { UnavailableReason } from './unavailable-reason.js';

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
    /** What a person can do about it, in cw's words (a gate's remedy); absent when the reason says it all. */
    remedy?: string,
  ) {
    super(
      `this turn cannot be sent: ${reason}${detail ? ` (${detail})` : ''}${remedy ? `: ${remedy}; the request was not sent` : ''}`,
    );
    this.safeMessage = this.message;
  }
}
