import type { JsonValue, TurnEvent, TurnUsage } from '@cw/core/plugin';

/** Prompt-cache counts a usage report may carry, as the provider names them. */
export interface CacheReport {
  readonly read?: JsonValue | undefined;
  readonly write?: JsonValue | undefined;
}

/**
 * Token totals a reply reports, possibly split across events or repeated cumulatively: each count a
 * report carries replaces the one before, and a usage event goes out once both counts are known.
 * Cache reads and writes are part of the input total cw reports; a wire that counts them beside its
 * input count (`cacheBesideInput`) has them added to it.
 */
export class UsageTotals {
  #inputTokens: number | null = null;
  #outputTokens: number | null = null;
  #cacheRead: number | null = null;
  #cacheWrite: number | null = null;
  readonly #cacheBesideInput: boolean;

  constructor(options: { readonly cacheBesideInput?: boolean } = {}) {
    this.#cacheBesideInput = options.cacheBesideInput ?? false;
  }

  /** Takes the counts that are numbers; the usage event with both totals, or nothing while one is unknown. */
  report(
    inputTokens: JsonValue | undefined,
    outputTokens: JsonValue | undefined,
    cache: CacheReport = {},
  ): TurnEvent[] {
    const input = typeof inputTokens === 'number' ? inputTokens : null;
    const output = typeof outputTokens === 'number' ? outputTokens : null;
    const read = countOf(cache.read);
    const write = countOf(cache.write);
    if (input === null && output === null && read === null && write === null) return [];
    this.#inputTokens = input ?? this.#inputTokens;
    this.#outputTokens = output ?? this.#outputTokens;
    this.#cacheRead = read ?? this.#cacheRead;
    this.#cacheWrite = write ?? this.#cacheWrite;
    if (this.#inputTokens === null || this.#outputTokens === null) return [];
    const beside = this.#cacheBesideInput ? (this.#cacheRead ?? 0) + (this.#cacheWrite ?? 0) : 0;
    const usage: TurnUsage = {
      input_tokens: this.#inputTokens + beside,
      output_tokens: this.#outputTokens,
      // A zero count says nothing a missing one does not; it is left out.
      ...(this.#cacheRead === null || this.#cacheRead === 0 ? {} : { cache_read_tokens: this.#cacheRead }),
      ...(this.#cacheWrite === null || this.#cacheWrite === 0 ? {} : { cache_write_tokens: this.#cacheWrite }),
    };
    return [{ type: 'usage', usage }];
  }
}

function countOf(value: JsonValue | undefined): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}
