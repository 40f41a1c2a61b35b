/** The input budget a turn overflows, in estimated tokens. */
export interface ContextOverflow {
  readonly estimatedInputTokens: number;
  readonly inputBudgetTokens: number;
}

/**
 * The turn does not fit the route's input budget, and compaction is off or could not make it fit
 * (docs/compaction.md), so cw refuses rather than send a request the provider would reject or
 * silently truncate.
 */
export class ContextOverflowError extends Error {
  override readonly name = 'ContextOverflowError';
  readonly exitCode = 1;
  constructor(readonly overflow: ContextOverflow) {
    super(
      `this turn needs about ${overflow.estimatedInputTokens} input tokens but the input budget of this route is ${overflow.inputBudgetTokens}; ` +
        'run cw compact, start a new session or pick a route with a larger context window; nothing was sent',
    );
  }
}
