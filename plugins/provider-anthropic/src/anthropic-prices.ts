import type { ModelPriceInput } from '@cw/core/plugin';

const SOURCE = 'https://platform.claude.com/docs/en/about-claude/pricing';
const AS_OF = '2026-12-06';

/**
 * Anthropic's published prices, USD per million tokens: base input, output, cache hits and 5-minute
 * cache writes (the breakpoints cw sets carry no TTL, so they are 5-minute writes).
 * `claude-sonnet-5` has none: its price was not on the page when it was read.
 */
export const ANTHROPIC_PRICES: readonly ModelPriceInput[] = [
  {
    models: ['claude-sonnet-4-6'],
    usd_per_mtok: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
    source: SOURCE,
    as_of: AS_OF,
  },
  {
    models: ['claude-opus-4-8'],
    usd_per_mtok: { input: 5, output: 25, cache_read: 0.5, cache_write: 6.25 },
    source: SOURCE,
    as_of: AS_OF,
  },
  {
    models: ['claude-haiku-4-5'],
    usd_per_mtok: { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 },
    source: SOURCE,
    as_of: AS_OF,
  },
];
