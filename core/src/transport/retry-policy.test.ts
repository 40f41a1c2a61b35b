import { describe, expect, it } from 'vitest';
import { isRetryableStatus, retryDelayMs } from './retry-policy.js';
import { DEFAULT_TRANSPORT_SETTINGS, type TransportSettings } from './transport-settings.js';

const SETTINGS: TransportSettings = {
  ...DEFAULT_TRANSPORT_SETTINGS,
  retryInitialDelayMs: 500,
  retryMaxDelayMs: 8_000,
  retryAfterCapMs: 60_000,
};
const NOW = Date.parse('2026-01-05T10:00:00Z');
const NO_JITTER = () => 0;

/** The delay before retry `attempt` with these headers, at NOW and without jitter. */
const delay = (headers: Record<string, string | string[]>, attempt = 1) =>
  retryDelayMs(attempt, headers, SETTINGS, NOW, NO_JITTER);

describe('isRetryableStatus', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [504, true],
    [599, true],
    [200, false],
    [301, false],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [413, false],
    [422, false],
    [499, false],
  ])('%i → %s', (status, retryable) => {
    expect(isRetryableStatus(status)).toBe(retryable);
  });
});

describe('retryDelayMs: the provider’s hint', () => {
  it('honours retry-after-ms as milliseconds', () => {
    expect(delay({ 'retry-after-ms': '1500' })).toBe(1500);
    expect(delay({ 'retry-after-ms': ' 250.5 ' })).toBe(250.5);
  });

  it('retry-after-ms wins over retry-after', () => {
    expect(delay({ 'retry-after-ms': '700', 'retry-after': '30' })).toBe(700);
  });

  it('a retry-after-ms that is not a number falls back to retry-after', () => {
    expect(delay({ 'retry-after-ms': 'soon', 'retry-after': '2' })).toBe(2000);
  });

  it('honours Retry-After in seconds, whole or fractional', () => {
    expect(delay({ 'retry-after': '3' })).toBe(3000);
    expect(delay({ 'retry-after': '1.5' })).toBe(1500);
    expect(delay({ 'retry-after': '0' })).toBe(0);
  });

  it('honours Retry-After as an HTTP date, counted from `now`', () => {
    expect(delay({ 'retry-after': new Date(NOW + 12_000).toUTCString() })).toBe(12_000);
    // A date already past means "now".
    expect(delay({ 'retry-after': new Date(NOW - 5_000).toUTCString() })).toBe(0);
  });

  it('takes the first value of a repeated header', () => {
    expect(delay({ 'retry-after': ['4', '9'] })).toBe(4000);
  });

  it('a hint up to the cap is waited for; one above it is ignored for backoff', () => {
    expect(delay({ 'retry-after': '60' })).toBe(60_000);
    expect(delay({ 'retry-after': '61' })).toBe(500);
    expect(delay({ 'retry-after-ms': '60001' })).toBe(500);
    expect(delay({ 'retry-after': new Date(NOW + 120_000).toUTCString() })).toBe(500);
  });

  it('a hint that is neither a number nor a date, or empty, is ignored', () => {
    expect(delay({ 'retry-after': 'later' })).toBe(500);
    expect(delay({ 'retry-after': '  ' })).toBe(500);
    expect(delay({})).toBe(500);
  });
});

describe('retryDelayMs: backoff', () => {
  it('doubles from the initial delay and is capped at retryMaxDelayMs', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map((attempt) => delay({}, attempt))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });

  it('follows the configured delays', () => {
    const settings = { ...SETTINGS, retryInitialDelayMs: 1, retryMaxDelayMs: 5 };
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, {}, settings, NOW, NO_JITTER))).toEqual([1, 2, 4, 5]);
  });

  it('jitter keeps the delay within 75–100 % of the backoff', () => {
    expect(retryDelayMs(3, {}, SETTINGS, NOW, () => 0)).toBe(2000);
    expect(retryDelayMs(3, {}, SETTINGS, NOW, () => 0.5)).toBe(1750);
    expect(retryDelayMs(3, {}, SETTINGS, NOW, () => 0.999_999)).toBe(1500);
    for (let step = 0; step < 100; step += 1) {
      const value = retryDelayMs(5, {}, SETTINGS, NOW, () => step / 100);
      expect(value).toBeGreaterThanOrEqual(6000);
      expect(value).toBeLessThanOrEqual(8000);
    }
  });

  it('jitter does not touch a hinted delay', () => {
    expect(retryDelayMs(1, { 'retry-after': '2' }, SETTINGS, NOW, () => 0.9)).toBe(2000);
  });
});
