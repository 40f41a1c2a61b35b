import type { CwConfig, TimeoutsConfig } from '../config/cw-config.js';

/** How long cw waits at each phase of one exchange, in milliseconds. */
export interface Timeouts {
  /** Until the TCP connection to the endpoint is open. */
  readonly connectMs: number;
  /** From sending the request until the response status line arrives. */
  readonly firstByteMs: number;
  /** The longest gap between two reply events; keep-alive comments do not count as progress. */
  readonly idleMs: number;
  /** The whole exchange, retries included. */
  readonly totalMs: number;
}

/** Timeouts, retries and limits for one exchange, resolved from defaults, config and flags. */
export interface TransportSettings {
  readonly timeouts: Timeouts;
  /** Retries after the first attempt, for failures before any reply byte was read. */
  readonly maxRetries: number;
  /** The first backoff delay; each retry doubles it, with jitter, up to `retryMaxDelayMs`. */
  readonly retryInitialDelayMs: number;
  readonly retryMaxDelayMs: number;
  /** A provider's Retry-After longer than this is not waited for; cw backs off on its own instead. */
  readonly retryAfterCapMs: number;
  /** The largest reply cw reads, in bytes; a larger one is an error, not a truncated success. */
  readonly maxReplyBytes: number;
}

/**
 * Defaults, and why (docs/transport.md): a reasoning model may think for minutes before its first
 * token, and peers let a stream sit idle about five minutes, so first byte and idle are 5 minutes;
 * a connection that takes over 10 s to open is not coming; a whole turn is capped at 30 minutes.
 * Two retries with 0.5 s doubling to 8 s is what the providers' own SDKs do.
 */
export const DEFAULT_TRANSPORT_SETTINGS: TransportSettings = {
  timeouts: { connectMs: 10_000, firstByteMs: 300_000, idleMs: 300_000, totalMs: 1_800_000 },
  maxRetries: 2,
  retryInitialDelayMs: 500,
  retryMaxDelayMs: 8_000,
  retryAfterCapMs: 60_000,
  maxReplyBytes: 64 * 1024 * 1024,
};

/** The settings config asks for on one route: a route's timeouts win over the top level, which wins over defaults. */
export function transportSettingsFor(
  config: Pick<CwConfig, 'timeouts' | 'route_timeouts' | 'retries' | 'max_reply_bytes'>,
  routeId: string,
  overrides: { readonly maxRetries?: number } = {},
): TransportSettings {
  const defaults = DEFAULT_TRANSPORT_SETTINGS;
  // Own keys only: a route id such as `constructor` must not find Object.prototype members.
  const route = Object.hasOwn(config.route_timeouts, routeId) ? config.route_timeouts[routeId] : undefined;
  const pick = (key: keyof TimeoutsConfig, fallback: number): number =>
    route?.[key] ?? config.timeouts[key] ?? fallback;
  return {
    timeouts: {
      connectMs: pick('connect_ms', defaults.timeouts.connectMs),
      firstByteMs: pick('first_byte_ms', defaults.timeouts.firstByteMs),
      idleMs: pick('idle_ms', defaults.timeouts.idleMs),
      totalMs: pick('total_ms', defaults.timeouts.totalMs),
    },
    maxRetries: overrides.maxRetries ?? config.retries.max ?? defaults.maxRetries,
    retryInitialDelayMs: config.retries.initial_delay_ms ?? defaults.retryInitialDelayMs,
    retryMaxDelayMs: config.retries.max_delay_ms ?? defaults.retryMaxDelayMs,
    retryAfterCapMs: defaults.retryAfterCapMs,
    maxReplyBytes: config.max_reply_bytes ?? defaults.maxReplyBytes,
  };
}
