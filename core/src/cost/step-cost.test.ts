import { describe, expect, it } from 'vitest';
import type { ModelPrice } from '../route/model-price.js';
import { inputCostUsd, type PriceBasis, priceBasisOf, stepCost, sumCosts, totalCost } from './step-cost.js';

const price = (usd_per_mtok: ModelPrice['usd_per_mtok']): PriceBasis => ({
  kind: 'priced',
  price: { models: ['m'], usd_per_mtok, source: 'https://example.com/pricing', as_of: '2026-12-06' },
});

const FULL = price({ input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 });

describe('stepCost', () => {
  it('prices input and output per million tokens, exactly', () => {
    // 1,234 × $3 + 567 × $15 per million = 3,702 + 8,505 micro-dollars.
    expect(stepCost(FULL, { input_tokens: 1_234, output_tokens: 567 })).toEqual({ usd: 0.012207 });
  });

  it('prices cache reads and writes apart from the uncached input they are part of', () => {
    // Uncached 1,000 × 3 = 3,000; reads 8,000 × 0.3 = 2,400; writes 1,000 × 3.75 = 3,750; out 100 × 15 = 1,500.
    const usage = { input_tokens: 10_000, output_tokens: 100, cache_read_tokens: 8_000, cache_write_tokens: 1_000 };
    expect(stepCost(FULL, usage)).toEqual({ usd: 0.01065 });
  });

  it('needs no floating point: prices with six decimals multiply to the exact picodollar', () => {
    const deepseek = price({ input: 0.435, output: 0.87, cache_read: 0.003625, cache_write: 0.435 });
    // 1,000,000 cache reads at $0.003625/M = 3,625 µ$ exactly; 1 uncached token at $0.435/M = 0.435 µ$.
    const usage = { input_tokens: 1_000_001, output_tokens: 0, cache_read_tokens: 1_000_000 };
    expect(stepCost(deepseek, usage)).toEqual({ usd: 0.003625 });
  });

  it('rounds once per step, half up, to the micro-dollar', () => {
    const half = price({ input: 0.5, output: 0.5, cache_read: null, cache_write: null });
    expect(stepCost(half, { input_tokens: 1, output_tokens: 0 })).toEqual({ usd: 0.000001 }); // 0.5 µ$ → 1
    expect(stepCost(half, { input_tokens: 0, output_tokens: 0 })).toEqual({ usd: 0 });
    const third = price({ input: 0.4, output: 0, cache_read: null, cache_write: null });
    expect(stepCost(third, { input_tokens: 1, output_tokens: 0 })).toEqual({ usd: 0 }); // 0.4 µ$ → 0
  });

  it('is unknown, with a typed reason, when the price or the usage is missing', () => {
    expect(stepCost({ kind: 'unpriced', reason: 'no-published-price' }, { input_tokens: 1, output_tokens: 1 })).toEqual(
      { usd: null, reason: 'no-published-price' },
    );
    expect(stepCost(FULL, null)).toEqual({ usd: null, reason: 'usage-not-reported' });
    const noCacheWrite = price({ input: 3, output: 15, cache_read: 0.3, cache_write: null });
    expect(stepCost(noCacheWrite, { input_tokens: 10, output_tokens: 1, cache_write_tokens: 5 })).toEqual({
      usd: null,
      reason: 'price-incomplete',
    });
    // A kind of token the usage does not count needs no price.
    expect(stepCost(noCacheWrite, { input_tokens: 10, output_tokens: 1 })).toEqual({ usd: 0.000045 });
    expect(stepCost(FULL, { input_tokens: 10, output_tokens: 1, cache_read_tokens: 11 })).toEqual({
      usd: null,
      reason: 'usage-inconsistent',
    });
  });
});

describe('priceBasisOf', () => {
  const prices = [
    {
      models: ['deepseek-v4-flash'],
      usd_per_mtok: { input: 0.14, output: 0.28, cache_read: 0.0028, cache_write: 0.14 },
      source: 'https://example.com/pricing',
      as_of: '2026-12-06',
    },
  ];
  it('finds the price by the selected id, then by the wire id an alias maps to', () => {
    const row = { prices, billing: { kind: 'metered' as const } };
    expect(priceBasisOf(row, 'deepseek-v4-flash', 'deepseek-v4-flash').kind).toBe('priced');
    expect(priceBasisOf(row, 'deepseek-chat', 'deepseek-v4-flash').kind).toBe('priced');
    expect(priceBasisOf(row, 'deepseek-v4-pro', 'deepseek-v4-pro')).toEqual({
      kind: 'unpriced',
      reason: 'no-published-price',
    });
  });

  it('says a local or subscription route without a price is not metered', () => {
    for (const billing of [{ kind: 'local' as const }, { kind: 'subscription' as const, plan: 'quota' }])
      expect(priceBasisOf({ prices: [], billing }, 'm', 'm')).toEqual({
        kind: 'unpriced',
        reason: 'route-not-metered',
      });
    expect(priceBasisOf({ prices: [], billing: { kind: 'unknown' } }, 'm', 'm')).toEqual({
      kind: 'unpriced',
      reason: 'no-published-price',
    });
  });
});

describe('totals', () => {
  it('a turn adds its steps in micro-dollars; one unknown step makes it unknown', () => {
    expect(sumCosts([{ usd: 0.1 }, { usd: 0.2 }])).toEqual({ usd: 0.3 });
    expect(sumCosts([{ usd: 0.1 }, { usd: null, reason: 'usage-not-reported' }])).toEqual({
      usd: null,
      reason: 'usage-not-reported',
    });
    expect(sumCosts([])).toEqual({ usd: 0 });
  });

  it('a session adds what it knows and counts what it does not', () => {
    expect(totalCost([{ usd: 0.000001 }, null, { usd: null, reason: 'no-published-price' }, { usd: 1.5 }])).toEqual({
      usd: 1.500001,
      steps_without_cost: 2,
    });
  });

  it('an input estimate is tokens × price, rounded half up to the micro-dollar', () => {
    expect(inputCostUsd(3, 798)).toBe(0.002394);
    expect(inputCostUsd(0.435, 867)).toBe(0.000377); // 377.145 µ$
    expect(inputCostUsd(0.0028, 1)).toBe(0);
  });
});
