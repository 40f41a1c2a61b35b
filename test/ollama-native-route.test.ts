// Ollama's own /api/chat wire, added as two plugins with no core code of their own: the built-in
// row previews exactly for the local server, and `cw send` (the built CLI, run `npm run build`
// first) puts on a local 127.0.0.1 server exactly the body preview hashed, and reads the
// newline-delimited JSON reply. A reply that never says `done`, or carries an error, fails the turn
// and leaves the session as it was.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sessionFile } from './support/cw-fixture.js';
import canonicalize from 'canonicalize';
import { afterAll, describe, expect, it } from 'vitest';
import type { Entrypoint } from '@cw/core/plugin';
import { type FaultHandler, json } from './support/fault-server.js';
import { useFaultHomes } from './support/fault-home.js';
import { HISTORY_WITH_TOOL_RESULTS, previewFor, removePreviewHomes } from './support/manifest-preview.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { runCwChild } from './support/spawn-cw.js';
import { validateWireBody } from './support/wire-schemas.js';

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');
const canonicalBytes = (value: unknown): number => Buffer.byteLength(canonicalize(value) ?? '', 'utf8');

afterAll(removePreviewHomes);

describe('the built-in ollama-native route', () => {
  it('posts to the local server without a key, and tells it the window it is planned against', async () => {
    for (const entrypoint of ['streaming', 'blocking'] as const) {
      const { prepared, manifest } = await previewFor({ config: { route: 'ollama-native' }, entrypoint });
      expect(prepared?.url).toBe('http://localhost:11434/api/chat');
      expect(prepared?.apiKeyEnv).toBeNull();
      const body = prepared?.body ?? {};
      expect(validateWireBody('ollama-chat', body).errors).toEqual([]);
      expect(body['stream']).toBe(entrypoint === 'streaming');
      expect(body['options']).toEqual({ num_predict: 4_096, num_ctx: 32_768 });
      expect('think' in body || 'tool_choice' in body).toBe(false);
      if (!('exact' in manifest.route) || !('exact' in manifest.body)) throw new Error('not exact');
      expect(manifest.route.exact).toMatchObject({ endpoint_host_class: 'http loopback', billing: { kind: 'local' } });
      expect(manifest.route.exact.body_stream_field).toBe(entrypoint === 'streaming');
      expect(manifest.body.exact.wire_output_cap_field).toBe('options.num_predict');
      expect(manifest.body.exact.tool_choice).toBeNull();
    }
  });

  it('think is a toggle: false for off, true for any other tier, nothing by default', async () => {
    const think = async (reasoning?: string) =>
      (await previewFor({ config: { route: 'ollama-native', ...(reasoning ? { reasoning } : {}) } })).prepared?.body[
        'think'
      ];
    expect(await think('off')).toBe(false);
    expect(await think('low')).toBe(true);
    expect(await think('max')).toBe(true);
    expect(await think()).toBeUndefined();
  });

  it('previews exactly with a tool loop in the history: every byte class measured here', async () => {
    const { prepared, manifest } = await previewFor({
      config: { route: 'ollama-native', reasoning: 'high' },
      history: HISTORY_WITH_TOOL_RESULTS,
    });
    if (!('exact' in manifest.body) || prepared === null) throw new Error('not exact');
    const body = prepared.body as { messages: Record<string, unknown>[]; tools: unknown[] };
    expect(validateWireBody('ollama-chat', body).errors).toEqual([]);
    expect(body.messages[2]).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_1', function: { name: 'list_directory', arguments: { path: '.' } } }],
    });
    const facts = manifest.body.exact;
    const system = canonicalBytes(body.messages[0]);
    const tools = canonicalBytes(body.tools);
    const messages = canonicalBytes(body.messages) - system;
    expect(facts.system_canonical_json_bytes).toBe(system);
    expect(facts.tool_schema_canonical_json_bytes).toBe(tools);
    expect(facts.message_canonical_json_bytes).toBe(messages);
    expect(facts.tool_result_canonical_json_bytes).toBe(canonicalBytes(body.messages[3]));
    expect(facts.body_canonical_json_bytes).toBe(system + tools + messages + facts.framing_canonical_json_bytes);
    expect(facts.message_count).toBe(5);
    expect(facts.body_sha256).toBe(sha256(canonicalize(body) ?? ''));
    expect(facts.reasoning_wire_control_keys).toEqual(['think']);
    expect(facts.reasoning_resolution).toBe('explicit');
  });
});

// ---------------------------------------------------------------------------------------------

const homes = useFaultHomes('CW_OLLAMA_UNUSED_KEY');
const PROMPT = 'keep  these  bytes\tand\nthis line';
const AT = '2026-08-21T10:00:00Z';
const line = (content: string): Record<string, unknown> => ({
  model: 'local-model',
  created_at: AT,
  message: { role: 'assistant', content },
  done: false,
});
const DONE = {
  model: 'local-model',
  created_at: AT,
  message: { role: 'assistant', content: '' },
  done: true,
  done_reason: 'stop',
  prompt_eval_count: 120,
  eval_count: 9,
};

/** A home whose route is a config route on the fault server that speaks the Ollama dialect, keyless. */
async function ollamaHome(baseUrl = `${homes.server.origin}/v1`): Promise<string> {
  return homes.home('chat-completions', {
    route: 'local-ollama',
    routes: {
      'local-ollama': { provider: 'custom', dialect: 'ollama-chat', base_url: baseUrl, model: 'local-model' },
    },
  });
}

function ndjson(...lines: Record<string, unknown>[]): FaultHandler {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const item of lines) response.write(`${JSON.stringify(item)}\n`);
    response.end();
  };
}

describe('cw send on a config route that speaks the Ollama dialect, to 127.0.0.1', () => {
  for (const entrypoint of ['streaming', 'blocking'] as Entrypoint[]) {
    it(`${entrypoint}: the previewed body, read back from NDJSON or one JSON object`, async () => {
      const home = await ollamaHome();
      const env = homes.envFor(home);
      const flags = entrypoint === 'blocking' ? ['--blocking'] : [];
      const preview = await runCwChild(['preview-request', 'json', ...flags, '--prompt', PROMPT], env);
      expect(preview.code, preview.stderr).toBe(0);
      expectValidManifest(preview.stdout);
      const manifest = JSON.parse(preview.stdout) as {
        route: { exact: { registered_by: string; route_defined_by: string } };
        body: { exact: { body_sha256: string; body_wire_sha256: string } };
      };
      expect(manifest.route.exact).toMatchObject({
        registered_by: '@cw/provider-ollama',
        route_defined_by: 'user-config',
      });

      homes.server.next(
        entrypoint === 'streaming'
          ? ndjson(line('parity'), line(' ok'), DONE)
          : json(200, { ...DONE, message: { role: 'assistant', content: 'parity ok' } }),
      );
      const sent = await runCwChild(['send', ...flags, '--prompt', PROMPT], env);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout).toContain('parity ok');
      const received = homes.server.received.at(-1);
      expect(received?.path).toBe('/v1/api/chat');
      expect(received?.headers['authorization']).toBeUndefined();
      const bytes = Buffer.from(received?.body ?? '', 'utf8');
      const sentBody = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      expect(sha256(canonicalize(sentBody) ?? '')).toBe(manifest.body.exact.body_sha256);
      expect(sha256(bytes)).toBe(manifest.body.exact.body_wire_sha256);
      expect(validateWireBody('ollama-chat', sentBody).errors).toEqual([]);
      expect(sentBody['stream']).toBe(entrypoint === 'streaming');
      const session = JSON.parse(await readFile(await sessionFile(home), 'utf8')) as {
        messages: Record<string, unknown>[];
      };
      expect(session.messages[1]).toMatchObject({
        content: 'parity ok',
        usage: { input_tokens: 120, output_tokens: 9 },
      });
    });
  }

  it('a base URL that already ends in /api gets /chat, not /api/api/chat', async () => {
    const home = await ollamaHome(`${homes.server.origin}/api`);
    homes.server.next(ndjson(line('ok'), DONE));
    const sent = await runCwChild(['send', '--prompt', 'hi'], homes.envFor(home));
    expect(sent.code, sent.stderr).toBe(0);
    expect(homes.server.received.at(-1)?.path).toBe('/api/chat');
  });

  for (const [name, handler, words] of [
    [
      'a stream that stops before done: true',
      () => ndjson(line('half an ans')),
      'ended before the provider said it was complete',
    ],
    [
      'an error line under the 200',
      () => ndjson(line('so'), { error: 'model runner has unexpectedly stopped' }),
      'model runner has unexpectedly stopped',
    ],
    ['an unknown model (HTTP 404)', () => json(404, { error: "model 'local-model' not found" }), 'HTTP 404'],
  ] as const) {
    it(`${name} fails the turn and leaves no session behind`, async () => {
      const home = await ollamaHome();
      homes.server.next(handler());
      const sent = await runCwChild(['send', '--prompt', 'hello'], homes.envFor(home));
      expect(sent.code).not.toBe(0);
      expect(sent.stderr).toContain(words);
      await expect(readFile(await sessionFile(home))).rejects.toMatchObject({ code: 'ENOENT' });
    });
  }
});
