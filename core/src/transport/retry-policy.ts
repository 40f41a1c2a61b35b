import type { TransportSettings } from './transport-settings.js';

// Statuses that say "try again": timeout, conflict, rate limit, and any server-side failure.
const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/** Whether a status the provider answered before any reply byte may be retried. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status) || status >= 500;
}

/**
 * The delay before retry number `attempt` (1-based). A provider's own hint wins when it is within
 * the cap: `retry-after-ms`, then `retry-after` in seconds or as an HTTP date. Otherwise exponential
 * backoff with up to 25 % jitter, so clients that failed together do not retry together.
 */
export function retryDelayMs(
  attempt: number,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  settings: TransportSettings,
  now: number = Date.now(),
  random: () => number = Math.random,
): number {
  const hinted = hintedDelayMs(headers, now);
  if (hinted !== null && hinted >= 0 && hinted <= settings.retryAfterCapMs) return hinted;
  const exponential = Math.min(settings.retryInitialDelayMs * 2 ** (attempt - 1), settings.retryMaxDelayMs);
  return Math.round(exponential * (1 - random() * 0.25));
}

function hintedDelayMs(headers: Readonly<Record<string, string | string[] | undefined>>, now: number): number | null {
  const milliseconds = single(headers['retry-after-ms']);
  if (milliseconds !== undefined && /^\d+(\.\d+)?$/.test(milliseconds.trim())) return Number(milliseconds);
  const after = single(headers['retry-after'])?.trim();
  if (after === undefined || after === '') return null;
  if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
