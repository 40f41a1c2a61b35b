import { safeEnvVarName } from '../redaction/safe-env-var-name.js';

/** The variable naming the loopback origin that test runs send every request to (docs/transport.md). */
export const TEST_ORIGIN_ENV = 'CW_TEST_ORIGIN';
/** The variable that must hold TEST_MODE_MARKER for TEST_ORIGIN_ENV to be honoured at all. */
export const TEST_MODE_ENV = 'CW_TEST_MODE';
/** The exact value of TEST_MODE_ENV that says "this is a test run with fake keys". */
export const TEST_MODE_MARKER = 'loopback-fake-keys';

// What a test key looks like: unmistakably fake, with no entropy a real key would carry.
const FAKE_KEY = /^sk-test-0{16,}$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

/** The test origin is set but cannot be honoured; nothing was sent. */
export class TestOriginError extends Error {
  override readonly name = 'TestOriginError';
  readonly exitCode = 1;
  /** cw's own words and the variable names only: never the origin's text or the key. */
  readonly safeMessage: string;
  constructor(reason: string) {
    super(
      `${TEST_ORIGIN_ENV} is a test-only setting and ${reason}; unset it to use the route's own endpoint; nothing was sent`,
    );
    this.safeMessage = this.message;
  }
}

/**
 * The URL one request goes to. Without TEST_ORIGIN_ENV it is the route's own URL. With it, the test
 * harness asks for the route's path on a loopback server: honoured only next to the test-mode marker,
 * only for a literal loopback http origin, and only when the key the request carries is a fake one,
 * so a real key can never reach a redirected address. Anything else refuses the send.
 */
export function requestUrlFor(
  url: string,
  key: string | null,
  apiKeyEnv: string | null,
  env: NodeJS.ProcessEnv,
): string {
  const origin = env[TEST_ORIGIN_ENV];
  if (origin === undefined || origin === '') return url;
  if (env[TEST_MODE_ENV] !== TEST_MODE_MARKER) {
    throw new TestOriginError(`is honoured only together with ${TEST_MODE_ENV}=${TEST_MODE_MARKER}`);
  }
  let target: URL;
  try {
    target = new URL(origin);
  } catch {
    throw new TestOriginError('is not a URL');
  }
  const bare =
    target.protocol === 'http:' &&
    LOOPBACK_HOSTS.has(target.hostname) &&
    target.port !== '' &&
    target.username === '' &&
    target.password === '' &&
    target.pathname === '/' &&
    target.search === '' &&
    target.hash === '';
  if (!bare)
    throw new TestOriginError('must be http://127.0.0.1:<port> or http://[::1]:<port>, with nothing after the port');
  if (key !== null && !FAKE_KEY.test(key)) {
    const variable = apiKeyEnv === null ? 'the route key variable' : safeEnvVarName(apiKeyEnv);
    throw new TestOriginError(`carries only fake keys (sk-test-000…), but ${variable} holds another value`);
  }
  const routed = new URL(url);
  return `${target.origin}${routed.pathname}${routed.search}`;
}
