import { describe, expect, it } from 'vitest';
import type { CwConfig } from '../config/cw-config.js';
import { DEFAULT_TRANSPORT_SETTINGS, transportSettingsFor } from './transport-settings.js';

type TransportConfig = Parameters<typeof transportSettingsFor>[0];
const DEFAULTS = DEFAULT_TRANSPORT_SETTINGS;

/** A config with only what transport settings read; what is left out is as a config without it parses. */
function config(fields: Partial<Pick<CwConfig, 'timeouts' | 'route_timeouts' | 'retries' | 'max_reply_bytes'>> = {}) {
  return { timeouts: {}, route_timeouts: {}, retries: {}, ...fields } satisfies TransportConfig;
}

describe('transportSettingsFor', () => {
  it('an empty config gives the defaults', () => {
    expect(transportSettingsFor(config(), 'remote')).toEqual(DEFAULTS);
  });

  it('top-level config replaces the defaults it names, and only those', () => {
    const settings = transportSettingsFor(
      config({
        timeouts: { first_byte_ms: 1_000, total_ms: 9_000 },
        retries: { max: 5, initial_delay_ms: 10, max_delay_ms: 20 },
        max_reply_bytes: 1_234,
      }),
      'remote',
    );
    expect(settings).toEqual({
      ...DEFAULTS,
      timeouts: { ...DEFAULTS.timeouts, firstByteMs: 1_000, totalMs: 9_000 },
      maxRetries: 5,
      retryInitialDelayMs: 10,
      retryMaxDelayMs: 20,
      maxReplyBytes: 1_234,
    });
  });

  it('a route’s entry wins over the top level for that route only, key by key', () => {
    const shared = config({
      timeouts: { connect_ms: 3_000, idle_ms: 9_000 },
      route_timeouts: { local: { idle_ms: 7_000, first_byte_ms: 600_000 } },
    });
    expect(transportSettingsFor(shared, 'local').timeouts).toEqual({
      ...DEFAULTS.timeouts,
      connectMs: 3_000,
      firstByteMs: 600_000,
      idleMs: 7_000,
    });
    expect(transportSettingsFor(shared, 'remote').timeouts).toEqual({
      ...DEFAULTS.timeouts,
      connectMs: 3_000,
      idleMs: 9_000,
    });
  });

  it('a maxRetries override wins over config and the default, 0 included', () => {
    const withMax = config({ retries: { max: 5 } });
    expect(transportSettingsFor(withMax, 'remote', { maxRetries: 1 }).maxRetries).toBe(1);
    expect(transportSettingsFor(withMax, 'remote', { maxRetries: 0 }).maxRetries).toBe(0);
    expect(transportSettingsFor(config(), 'remote', { maxRetries: 4 }).maxRetries).toBe(4);
    expect(transportSettingsFor(withMax, 'remote', {}).maxRetries).toBe(5);
  });

  it('reads only a route’s own entry: `constructor` and inherited keys are not routes', () => {
    for (const routeId of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(transportSettingsFor(config(), routeId)).toEqual(DEFAULTS);
    }
    const inherited = Object.create({ local: { idle_ms: 1 } }) as CwConfig['route_timeouts'];
    expect(transportSettingsFor(config({ route_timeouts: inherited }), 'local').timeouts.idleMs).toBe(
      DEFAULTS.timeouts.idleMs,
    );
  });

  it('a route named `constructor` still gets its own entry', () => {
    const own = config({ route_timeouts: { constructor: { idle_ms: 5_000 } } });
    expect(transportSettingsFor(own, 'constructor').timeouts.idleMs).toBe(5_000);
  });
});
