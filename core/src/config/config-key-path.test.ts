import { describe, expect, it } from 'vitest';
import { ConfigKeyError, formatConfigPath, parseConfigKey } from './config-key-path.js';

describe('config keys', () => {
  it('reads dotted words, quoted names and indexes', () => {
    expect(parseConfigKey('routes.local.model')).toEqual(['routes', 'local', 'model']);
    expect(parseConfigKey('tools.allow[0]')).toEqual(['tools', 'allow', 0]);
    expect(parseConfigKey('route_timeouts["my.route"].connect_ms')).toEqual([
      'route_timeouts',
      'my.route',
      'connect_ms',
    ]);
  });

  it('refuses malformed keys as a usage error', () => {
    for (const key of ['', '.a', 'a..b', 'a.', 'a b', 'a[x]', 'a["b"']) {
      expect(() => parseConfigKey(key), key).toThrow(ConfigKeyError);
    }
    expect(new ConfigKeyError('x').exitCode).toBe(2);
  });

  it('prints a path the way it is read back, fingerprinting a name that is not showable', () => {
    const fields = new Set(['routes', 'api_key_env']);
    expect(formatConfigPath(['routes', 'my.route', 'api_key_env'], fields)).toBe('routes["my.route"].api_key_env');
    expect(parseConfigKey(formatConfigPath(['routes', 'my.route', 'api_key_env'], fields))).toEqual([
      'routes',
      'my.route',
      'api_key_env',
    ]);
    expect(formatConfigPath(['routes', `sk-test-${'0'.repeat(30)}`], fields)).toMatch(
      /^routes\[sha256:[0-9a-f]{12}\]$/,
    );
  });
});
