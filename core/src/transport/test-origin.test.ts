import { describe, expect, it } from 'vitest';
import { TEST_MODE_ENV, TEST_MODE_MARKER, TEST_ORIGIN_ENV, TestOriginError, requestUrlFor } from './test-origin.js';

const ROUTE_URL = 'https://api.provider.test/v1/chat/completions?beta=true';
const FAKE = `sk-test-${'0'.repeat(32)}`;
const marked = (origin: string): NodeJS.ProcessEnv => ({
  [TEST_ORIGIN_ENV]: origin,
  [TEST_MODE_ENV]: TEST_MODE_MARKER,
});

function refusal(run: () => unknown): TestOriginError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TestOriginError);
    return error as TestOriginError;
  }
  throw new Error('the test origin was honoured');
}

describe('requestUrlFor', () => {
  it('is the route URL itself when no test origin is set (the marker alone changes nothing)', () => {
    expect(requestUrlFor(ROUTE_URL, FAKE, 'K', {})).toBe(ROUTE_URL);
    expect(requestUrlFor(ROUTE_URL, FAKE, 'K', { [TEST_MODE_ENV]: TEST_MODE_MARKER })).toBe(ROUTE_URL);
    expect(requestUrlFor(ROUTE_URL, FAKE, 'K', { [TEST_ORIGIN_ENV]: '' })).toBe(ROUTE_URL);
  });

  it('sends the route path and query to the loopback origin, with a fake key or no key', () => {
    expect(requestUrlFor(ROUTE_URL, FAKE, 'K', marked('http://127.0.0.1:4321'))).toBe(
      'http://127.0.0.1:4321/v1/chat/completions?beta=true',
    );
    expect(requestUrlFor('http://127.0.0.1:11434/v1/chat/completions', null, null, marked('http://[::1]:9/'))).toBe(
      'http://[::1]:9/v1/chat/completions',
    );
  });

  it('refuses a test origin without the exact test-mode marker, and says how to get the real endpoint back', () => {
    for (const env of [
      { [TEST_ORIGIN_ENV]: 'http://127.0.0.1:4321' },
      { [TEST_ORIGIN_ENV]: 'http://127.0.0.1:4321', [TEST_MODE_ENV]: '1' },
      { [TEST_ORIGIN_ENV]: 'http://127.0.0.1:4321', [TEST_MODE_ENV]: `${TEST_MODE_MARKER} ` },
    ]) {
      const error = refusal(() => requestUrlFor(ROUTE_URL, FAKE, 'K', env));
      expect(error.safeMessage).toBe(
        `${TEST_ORIGIN_ENV} is a test-only setting and is honoured only together with ${TEST_MODE_ENV}=${TEST_MODE_MARKER}; unset it to use the route's own endpoint; nothing was sent`,
      );
      expect(error.exitCode).toBe(1);
    }
  });

  it('refuses every origin that is not a bare literal loopback http origin with a port', () => {
    for (const origin of [
      'https://127.0.0.1:4321',
      'http://localhost:4321',
      'http://127.0.0.2:4321',
      'http://10.0.0.1:4321',
      'http://api.provider.test:4321',
      'http://127.0.0.1',
      'http://127.0.0.1:4321/v1',
      'http://127.0.0.1:4321/?x=1',
      'http://user:pw@127.0.0.1:4321',
      'not a url',
    ]) {
      const error = refusal(() => requestUrlFor(ROUTE_URL, FAKE, 'K', marked(origin)));
      // Fixed words only: the origin's own text is never echoed.
      expect(error.safeMessage, origin).toMatch(
        new RegExp(
          `^${TEST_ORIGIN_ENV} is a test-only setting and (is not a URL|must be http://127\\.0\\.0\\.1:<port> or http://\\[::1\\]:<port>, with nothing after the port); unset it`,
        ),
      );
    }
  });

  it('refuses a key that is not a fake one, and never prints it', () => {
    for (const key of ['sk-proj-4fJd8sLq0pZx7RmN2vT9', 'sk-test-', 'sk-test-0000', `sk-test-${'0'.repeat(31)}1`]) {
      const error = refusal(() => requestUrlFor(ROUTE_URL, key, 'PROVIDER_API_KEY', marked('http://127.0.0.1:4321')));
      expect(error.safeMessage).toContain('PROVIDER_API_KEY holds another value');
      if (key.length > 12) expect(error.message).not.toContain(key);
    }
  });
});
