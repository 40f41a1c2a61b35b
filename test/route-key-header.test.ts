// A route that takes its key in a header of its own (`auth.scheme: header`), as row data only: the
// key goes in that header and in no other, and a provider that echoes it back never gets it printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshot, sendTurn, type PluginRegistry } from '@cw/core';
import { ProviderError } from '../core/src/transport/provider-error.js';
import { builtinRegistry, DEFAULT_ROUTE_ID, FAKE_KEY, removeHome, tempHome } from './support/cw-fixture.js';
import { json, sse, startFaultServer, type FaultServer } from './support/fault-server.js';

const KEY_ENV = 'CW_KEY_HEADER_TEST_KEY';
const TIMEOUTS = { connect_ms: 2_000, first_byte_ms: 5_000, idle_ms: 5_000, total_ms: 20_000 };

let server: FaultServer;
let registry: PluginRegistry;
const homes: string[] = [];

beforeAll(async () => {
  server = await startFaultServer();
  registry = await builtinRegistry();
  registry.apiFor('test-key-header').addRoute({
    provider_id: 'own-header',
    provider_display: 'Key in its own header',
    route_id: 'own-header',
    dialect: 'chat-completions',
    route_shape: 'standard',
    endpoint: { base_url: `${server.origin}/v1`, path: '/chat/completions' },
    auth: { scheme: 'header', key_header: 'x-service-key', api_key_env: KEY_ENV },
    model: { default: 'm' },
    context: { window_tokens: 32_000, source: 'configured' },
    output_cap: { field: 'max_tokens', default_tokens: 256 },
    billing: { kind: 'metered' },
    tool_schema: { dialect: 'loose' },
    tool_choice: { accepted: ['auto'] },
    reasoning: null,
    provenance: { source: 'test fixture' },
  });
  expect(registry.problems).toEqual([]);
});
afterAll(async () => {
  await server.close();
  await Promise.all(homes.map(removeHome));
});

async function send() {
  const home = await tempHome({ route: 'own-header', timeouts: TIMEOUTS });
  homes.push(home);
  const snapshot = await loadSnapshot({ home, registry, defaultRouteId: DEFAULT_ROUTE_ID });
  return sendTurn(snapshot, { home, prompt: 'hello', entrypoint: 'streaming', env: { [KEY_ENV]: FAKE_KEY } });
}

describe('auth scheme header', () => {
  it('sends the key as it is in the named header, and no Authorization header', async () => {
    server.next(
      sse(
        'data: {"choices":[{"delta":{"content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1}}\n\n',
        'data: [DONE]\n\n',
      ),
    );
    const sent = await send();
    expect(sent.reply.text).toBe('ok');
    const headers = server.received.at(-1)?.headers ?? {};
    expect(headers['x-service-key']).toBe(FAKE_KEY);
    expect(headers['authorization']).toBeUndefined();
    expect(headers['x-api-key']).toBeUndefined();
  });

  it('a provider that echoes the key in its error never gets it printed', async () => {
    server.next(json(400, { error: { message: `bad key ${FAKE_KEY}`, type: 'invalid_request_error' } }));
    const failure = await send().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(String((failure as Error).message)).not.toContain(FAKE_KEY);
    expect(String((failure as Error).message)).toContain('HTTP 400');
  });
});
