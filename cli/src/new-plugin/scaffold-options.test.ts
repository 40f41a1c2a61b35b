import { describe, expect, it } from 'vitest';
import { ScaffoldUsageError, scaffoldOptions, unscopedName } from './scaffold-options.js';

/** The usage error a call throws; fails the test when it throws nothing or something else. */
function usageError(call: () => unknown): ScaffoldUsageError {
  try {
    call();
  } catch (error) {
    if (error instanceof ScaffoldUsageError) return error;
    throw error;
  }
  throw new Error('expected a ScaffoldUsageError');
}

describe('scaffoldOptions', () => {
  it('derives every value from a cw-provider-<name> package name', () => {
    expect(scaffoldOptions('cw-provider-acme', {})).toEqual({
      packageName: 'cw-provider-acme',
      providerId: 'acme',
      providerDisplay: 'Acme',
      routeId: 'acme',
      dialect: 'chat-completions',
      baseUrl: 'https://api.acme.example/v1',
      keyEnv: 'ACME_API_KEY',
    });
  });

  it('drops the scope and turns separators into words and underscores', () => {
    expect(scaffoldOptions('@acme/cw-provider-big-cloud', {})).toMatchObject({
      providerId: 'big-cloud',
      providerDisplay: 'Big Cloud',
      routeId: 'big-cloud',
      keyEnv: 'BIG_CLOUD_API_KEY',
    });
    expect(unscopedName('@acme/cw-provider-big-cloud')).toBe('cw-provider-big-cloud');
    expect(scaffoldOptions('acme-route', {}).providerId).toBe('acme-route');
  });

  it('takes every flag as given', () => {
    const flags = {
      routeId: 'acme-chat',
      dialect: 'chat-completions',
      providerDisplay: "Acme's Cloud",
      baseUrl: 'http://127.0.0.1:8080/v1',
      keyEnv: 'ACME_TOKEN',
    };
    expect(scaffoldOptions('cw-provider-acme', flags)).toMatchObject({
      routeId: 'acme-chat',
      providerDisplay: "Acme's Cloud",
      baseUrl: 'http://127.0.0.1:8080/v1',
      keyEnv: 'ACME_TOKEN',
    });
  });

  it.each([
    ['a name with capitals', 'CW-Provider-Acme', {}, 'not a valid npm package name'],
    ['a name with a space', 'cw provider', {}, 'not a valid npm package name'],
    ['a name with a path', '../cw-provider-acme', {}, 'not a valid npm package name'],
    ['a route id with a space', 'cw-provider-acme', { routeId: 'Acme Chat' }, '--route-id must be kebab-case'],
    ['a route id with a slash', 'cw-provider-acme', { routeId: 'acme/chat' }, '--route-id must be kebab-case'],
    ['a dialect the scaffold does not test', 'cw-provider-acme', { dialect: 'anthropic-messages' }, '--dialect'],
    ['a plain-http remote endpoint', 'cw-provider-acme', { baseUrl: 'http://api.acme.test/v1' }, 'must be https'],
    ['an endpoint with a query', 'cw-provider-acme', { baseUrl: 'https://api.acme.test/v1?k=1' }, 'query'],
    ['an endpoint with user info', 'cw-provider-acme', { baseUrl: 'https://u:p@api.acme.test/v1' }, 'user info'],
    ['an endpoint that is not a URL', 'cw-provider-acme', { baseUrl: 'api.acme.test' }, 'not a URL'],
    ['a lower-case key variable', 'cw-provider-acme', { keyEnv: 'acme_key' }, '--key-env'],
    ['a display name of two lines', 'cw-provider-acme', { providerDisplay: 'Acme\nCloud' }, '--provider-display'],
  ])('refuses %s with exit 2, without repeating it', (_what, name, flags, message) => {
    const error = usageError(() => scaffoldOptions(name, flags));
    expect(error.exitCode).toBe(2);
    expect(error.safeMessage).toContain(message);
    expect(error.safeMessage).not.toContain('\n');
    for (const given of [name, ...Object.values(flags)]) {
      if (given !== 'cw-provider-acme') expect(error.safeMessage).not.toContain(given);
    }
  });
});
