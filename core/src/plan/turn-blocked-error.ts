import type { UnavailableReason } from '../manifest/unavailable-reason.js';

/**
 * A turn that cannot go out as it stands, for a reason the plan names (pending state, unknowable MCP
 * tools, no prompt). The message is built from cw's words and an already redacted detail.
 */
export class TurnBlockedError extends Error {
  override readonly name = 'TurnBlockedError';
  readonly exitCode = 1;
  constructor(
    readonly reason: UnavailableReason,
    readonly detail: string | null,
  ) {
    super(`this turn cannot be sent: ${reason}${detail ? ` (${detail})` : ''}`);
  }
}
