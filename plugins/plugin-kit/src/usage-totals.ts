import type { JsonValue, TurnEvent } from '@cw/core/plugin';

/**
 * Token totals a reply reports, possibly split across events or repeated cumulatively: each count a
 * report carries replaces the one before, and a usage event goes out once both counts are known.
 */
export class UsageTotals {
  #inputTokens: number | null = null;
  #outputTokens: number | null = null;

  /** Takes the counts that are numbers; the usage event with both totals, or nothing while one is unknown. */
  report(inputTokens: JsonValue | undefined, outputTokens: JsonValue | undefined): TurnEvent[] {
    const input = typeof inputTokens === 'number' ? inputTokens : null;
    const output = typeof outputTokens === 'number' ? outputTokens : null;
    if (input === null && output === null) return [];
    this.#inputTokens = input ?? this.#inputTokens;
    this.#outputTokens = output ?? this.#outputTokens;
    if (this.#inputTokens === null || this.#outputTokens === null) return [];
    return [{ type: 'usage', usage: { input_tokens: this.#inputTokens, output_tokens: this.#outputTokens } }];
  }
}
