import { describe, expect, it } from 'vitest';
import { UsageTotals } from './usage-totals.js';

const usage = (input: number, output: number) => [
  { type: 'usage', usage: { input_tokens: input, output_tokens: output } },
];

describe('UsageTotals', () => {
  it('reports both counts at once', () => {
    expect(new UsageTotals().report(10, 2)).toEqual(usage(10, 2));
  });

  it('waits until both counts are known, across reports', () => {
    const totals = new UsageTotals();
    expect(totals.report(10, undefined)).toEqual([]);
    expect(totals.report(undefined, 4)).toEqual(usage(10, 4));
  });

  it('a later count replaces the earlier one (cumulative reports)', () => {
    const totals = new UsageTotals();
    totals.report(10, 1);
    expect(totals.report(undefined, 9)).toEqual(usage(10, 9));
    expect(totals.report(12, 15)).toEqual(usage(12, 15));
  });

  it('a report without numbers changes nothing and emits nothing', () => {
    const totals = new UsageTotals();
    totals.report(1, 2);
    expect(totals.report(null, '3')).toEqual([]);
    expect(totals.report(undefined, 5)).toEqual(usage(1, 5));
  });

  it('carries cache reads and writes as part of the input', () => {
    expect(new UsageTotals().report(100, 5, { read: 80, write: 0 })).toEqual([
      { type: 'usage', usage: { input_tokens: 100, output_tokens: 5, cache_read_tokens: 80 } },
    ]);
  });

  it('adds them to the input on a wire that counts them beside it', () => {
    const totals = new UsageTotals({ cacheBesideInput: true });
    expect(totals.report(20, undefined, { read: 1_000, write: 300 })).toEqual([]);
    expect(totals.report(undefined, 7)).toEqual([
      {
        type: 'usage',
        usage: { input_tokens: 1_320, output_tokens: 7, cache_read_tokens: 1_000, cache_write_tokens: 300 },
      },
    ]);
  });
});
