import type { ModelPriceInput } from '@cw/core/plugin';

const SOURCE = 'https://api-docs.deepseek.com/quick_start/pricing';
const AS_OF = '2026-12-06';

/**
 * DeepSeek's published prices, USD per million tokens: cache-miss input, output and cache-hit input.
 * DeepSeek bills no separate cache write: a prefix it stores was a cache miss, so a reported cache
 * write is priced as cache-miss input. The same prices hold on every DeepSeek endpoint.
 */
export const DEEPSEEK_PRICES: readonly ModelPriceInput[] = [
  {
    models: ['deepseek-v4-pro'],
    usd_per_mtok: { input: 0.435, output: 0.87, cache_read: 0.003625, cache_write: 0.435 },
    source: SOURCE,
    as_of: AS_OF,
  },
  {
    models: ['deepseek-v4-flash'],
    usd_per_mtok: { input: 0.14, output: 0.28, cache_read: 0.0028, cache_write: 0.14 },
    source: SOURCE,
    as_of: AS_OF,
  },
];
