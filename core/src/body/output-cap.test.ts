import { describe, expect, it } from 'vitest';
import type { CapabilityRow } from '../route/capability-row.js';
import { outputCapFor } from './output-cap.js';

function row(
  window: number,
  cap: Partial<CapabilityRow['output_cap']>,
  outputLimit: number | null = null,
): Pick<CapabilityRow, 'output_cap' | 'context'> {
  return {
    context: { window_tokens: window, source: 'catalog', input_limit_tokens: null, output_limit_tokens: outputLimit },
    output_cap: { field: 'max_tokens', default_tokens: 32_768, reserve_tokens: null, ...cap },
  };
}

describe('outputCapFor', () => {
  it('sends the default and reserves exactly it', () => {
    expect(outputCapFor(row(1_000_000, { default_tokens: 65_536 }))).toEqual({
      capTokens: 65_536,
      reservationTokens: 65_536,
    });
  });

  it('is lowered to the route output limit', () => {
    expect(outputCapFor(row(1_000_000, {}, 8_192)).capTokens).toBe(8_192);
  });

  it('HB-07: an 8,192 window leaves 6,144', () => {
    expect(outputCapFor(row(8_192, { default_tokens: 262_144 })).capTokens).toBe(6_144);
  });

  it('HB-11: a window with no room left still sends 1, never 0, and reserves that 1', () => {
    expect(outputCapFor(row(2_048, {}))).toEqual({ capTokens: 1, reservationTokens: 1 });
    expect(outputCapFor(row(2_000, { default_tokens: 500 }))).toEqual({ capTokens: 1, reservationTokens: 1 });
  });

  it('a route that sends no cap reserves its declared tokens, or nothing', () => {
    expect(outputCapFor(row(128_000, { field: null, reserve_tokens: 4_096 }))).toEqual({
      capTokens: null,
      reservationTokens: 4_096,
    });
    expect(outputCapFor(row(128_000, { field: null }))).toEqual({ capTokens: null, reservationTokens: 0 });
    expect(outputCapFor(row(2_000, { field: null, reserve_tokens: 4_096 })).reservationTokens).toBe(0);
  });
});
