// A route whose wire names the model in the URL and asks for a stream by URL, described as row data
// only (`endpoint.path` with `{model}`, `endpoint.streaming_path`): the request goes to the filled-in
// path on each entry point, asks for the stream it will get, and the manifest fingerprints that URL.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshot, previewRequest, sendTurn, type PluginRegistry } from '@cw/core';
import type { CapabilityRowInput, WireBody } from '@cw/core/plugin';
import { builtinRegistry, DEFAULT_ROUTE_ID, removeHome, tempHome } from './support/cw-fixture.js';
import { json, sse, startFaultServer, type FaultServer } from './support/fault-server.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const TIMEOUTS = { connect_ms: 2_000, first_byte_ms: 5_000, idle_ms: 5_000, total_ms: 20_000 };
const CHAT_SSE = [
  'data: {"choices":[{"delta":{"content":"ok"}}]}\n\n',
  'data: {"choices":[{"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1}}\n\n',
  'data: [DONE]\n\n',
];
const CHAT_JSON = {
  choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1 },
};

let server: FaultServer;
let registry: PluginRegistry;
const homes: string[] = [];

function row(origin: string, routeId: string, dialect: string): CapabilityRowInput {
  return {
    provider_id: 'url-model',
    provider_display: 'Model in the URL',
    route_id: routeId,
    dialect,
    route_shape: 'standard',
    endpoint: {
      base_url: `${origin}/v9`,
      path: '/models/{model}:chat',
      streaming_path: '/models/{model}:streamChat?alt=sse',
    },
    auth: { scheme: 'none', api_key_env: null },
    model: { default: 'm-1', wire_map: { 'm-1': 'm-1-wire' }, catalog: ['m-1'] },
    context: { window_tokens: 32_000, source: 'configured' },
    output_cap: { field: 'max_tokens', default_tokens: 256 },
    billing: { kind: 'local' },
    tool_schema: { dialect: 'loose' },
    tool_choice: { accepted: ['auto'] },
    reasoning: null,
    provenance: { source: 'test fixture' },
  };
}

beforeAll(async () => {
  server = await startFaultServer();
  registry = await builtinRegistry();
  const api = registry.apiFor('test-url-model');
  // A dialect whose body has no stream field: chat bodies without `stream`, so only the URL streams.
  const chat = registry.dialect('chat-completions');
  if (chat === undefined) throw new Error('the chat-completions dialect did not load');
  api.addDialect({
    id: 'chat-by-url',
    buildBody: (context) => {
      const { stream: _stream, stream_options: _options, ...body } = chat.buildBody(context) as WireBody;
      return body;
    },
    describeBody: (body) => ({ ...chat.describeBody(body), streamField: null }),
    createDecoder: chat.createDecoder,
  });
  api.addRoute(row(server.origin, 'url-body-stream', 'chat-completions'));
  api.addRoute(row(server.origin, 'url-only-stream', 'chat-by-url'));
  expect(registry.problems).toEqual([]);
});
afterAll(async () => {
  await server.close();
  await Promise.all(homes.map(removeHome));
});

async function snapshotFor(route: string) {
  const home = await tempHome({ route, timeouts: TIMEOUTS });
  homes.push(home);
  return { home, snapshot: await loadSnapshot({ home, registry, defaultRouteId: DEFAULT_ROUTE_ID }) };
}

describe('endpoint paths from row data', () => {
  for (const routeId of ['url-body-stream', 'url-only-stream']) {
    it(`${routeId}: each entry point posts to its own path with the wire model, and asks for what it gets`, async () => {
      for (const entrypoint of ['streaming', 'blocking'] as const) {
        const { home, snapshot } = await snapshotFor(routeId);
        const { manifest, prepared } = previewRequest(snapshot, 'hello', entrypoint);
        const expectedPath =
          entrypoint === 'streaming' ? '/v9/models/m-1-wire:streamChat?alt=sse' : '/v9/models/m-1-wire:chat';
        expect(prepared?.url).toBe(`${server.origin}${expectedPath}`);
        if (!('exact' in manifest.route)) throw new Error('route not exact');
        expect(manifest.route.exact.endpoint_fingerprint).toBe(sha256(`${server.origin}${expectedPath}`));

        server.next(entrypoint === 'streaming' ? sse(...CHAT_SSE) : json(200, CHAT_JSON));
        const sent = await sendTurn(snapshot, { home, prompt: 'hello', entrypoint, env: {} });
        expect(sent.reply.text).toBe('ok');
        const received = server.received.at(-1);
        expect(received?.path).toBe(expectedPath);
        expect(received?.headers['accept']).toBe(entrypoint === 'streaming' ? 'text/event-stream' : 'application/json');
      }
    });
  }
});
