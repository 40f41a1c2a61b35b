// The Gemini route and dialect, added as two plugins with no core code of their own: the built-in
// row posts where the published discovery document says, previews exactly (byte classes measured
// here, independently), and `cw send` (the built CLI, run `npm run build` first) puts on a local
// 127.0.0.1 server exactly the body preview hashed, on the URL and key header of the wire. A reply
// that never finishes, or carries an error, fails the turn and leaves the session as it was.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { afterAll, describe, expect, it } from 'vitest';
import type { Entrypoint } from '@cw/core/plugin';
import { FAKE_KEY, REPO_ROOT, sessionFile } from './support/cw-fixture.js';
import { data, type FaultHandler, json } from './support/fault-server.js';
import { useFaultHomes } from './support/fault-home.js';
import { HISTORY_WITH_TOOL_RESULTS, previewFor, removePreviewHomes } from './support/manifest-preview.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { runCwChild } from './support/spawn-cw.js';
import { validateGeminiReply, validateWireBody } from './support/wire-schemas.js';

const KEY_ENV = 'CW_GEMINI_TEST_KEY';
const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');
const canonicalBytes = (value: unknown): number => Buffer.byteLength(canonicalize(value) ?? '', 'utf8');
const discovery = JSON.parse(
  readFileSync(join(REPO_ROOT, 'test/fixtures/specs/gemini-generate-content-request.schema.json'), 'utf8'),
) as { 'x-discovery': { methods: Record<string, { flatPath: string }> } };

afterAll(removePreviewHomes);

/** The published path of a method, for a model. */
const publishedPath = (method: string, model: string): string =>
  `/${discovery['x-discovery'].methods[method]?.flatPath.replace('{modelsId}', model)}`;

describe('the built-in gemini route', () => {
  it('posts to the published generateContent and streamGenerateContent paths, streaming as server-sent events', async () => {
    for (const [entrypoint, method] of [
      ['blocking', 'generateContent'],
      ['streaming', 'streamGenerateContent'],
    ] as const) {
      const { prepared, manifest } = await previewFor({ config: { route: 'gemini' }, entrypoint });
      const url = new URL(prepared?.url ?? '');
      expect(url.origin).toBe('https://generativelanguage.googleapis.com');
      expect(url.pathname).toBe(publishedPath(method, 'gemini-flash-latest'));
      expect(url.search).toBe(entrypoint === 'streaming' ? '?alt=sse' : '');
      expect(prepared?.headers['accept']).toBe(entrypoint === 'streaming' ? 'text/event-stream' : 'application/json');
      // The key is added by the transport, in Google's header; the prepared request holds none.
      expect(prepared?.route.row.auth).toMatchObject({ scheme: 'header', key_header: 'x-goog-api-key' });
      expect(Object.keys(prepared?.headers ?? {})).toEqual(['content-type', 'accept', 'user-agent']);
      if (!('exact' in manifest.route)) throw new Error('route not exact');
      expect(manifest.route.exact.endpoint_fingerprint).toBe(sha256(prepared?.url ?? ''));
      expect(manifest.route.exact.body_stream_field).toBeNull();
    }
  });

  it('previews exactly with a tool loop in the history: every byte class measured here', async () => {
    const { prepared, manifest } = await previewFor({
      config: { route: 'gemini', reasoning: 'high' },
      history: HISTORY_WITH_TOOL_RESULTS,
    });
    if (!('exact' in manifest.body) || !('exact' in manifest.tools) || prepared === null) throw new Error('not exact');
    const body = prepared.body as {
      systemInstruction: unknown;
      contents: { role: string; parts: Record<string, unknown>[] }[];
      tools: { functionDeclarations: unknown[] }[];
      generationConfig: Record<string, unknown>;
    };
    expect(validateWireBody('gemini-generate-content', body).errors).toEqual([]);
    expect(body.contents.map((content) => content.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(body.contents[1]?.parts).toEqual([
      { functionCall: { id: 'call_1', name: 'list_directory', args: { path: '.' } } },
    ]);
    const facts = manifest.body.exact;
    const system = canonicalBytes(body.systemInstruction);
    const tools = canonicalBytes(body.tools);
    const messages = canonicalBytes(body.contents);
    expect(facts.system_canonical_json_bytes).toBe(system);
    expect(facts.tool_schema_canonical_json_bytes).toBe(tools);
    expect(facts.message_canonical_json_bytes).toBe(messages);
    expect(facts.tool_result_canonical_json_bytes).toBe(canonicalBytes(body.contents[2]));
    expect(facts.body_canonical_json_bytes).toBe(system + tools + messages + facts.framing_canonical_json_bytes);
    expect(facts.body_canonical_json_bytes).toBe(canonicalBytes(body));
    expect(facts.message_count).toBe(5);
    expect(facts.tool_schema_wire_sha256).toBe(sha256(canonicalize(body.tools) ?? ''));
    expect(facts.body_sha256).toBe(sha256(canonicalize(body) ?? ''));
    expect(facts.wire_output_cap_field).toBe('generationConfig.maxOutputTokens');
    expect(facts.wire_output_cap_tokens).toBe(16_384);
    expect(facts.reasoning_wire_control_keys).toEqual(['generationConfig.thinkingConfig']);
    expect(facts.reasoning_wire_effort).toBe('HIGH');
    expect(facts.reasoning_wire_effort_source).toBe('generationConfig.thinkingConfig.thinkingLevel');
    expect(facts.reasoning_resolution).toBe('explicit');
    expect(facts.tool_choice).toBe('AUTO');
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 16_384,
      thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' },
    });
    expect(manifest.tools.exact.active_tool_count).toBe(body.tools[0]?.functionDeclarations.length);
  });

  it('with no tier chosen the body asks for no thinking, and the manifest says not-applicable', async () => {
    const { prepared, manifest } = await previewFor({ config: { route: 'gemini' } });
    if (!('exact' in manifest.body)) throw new Error('not exact');
    expect(prepared?.body['generationConfig']).toEqual({ maxOutputTokens: 16_384 });
    expect(manifest.body.exact.reasoning_wire_control_keys).toEqual([]);
    expect(manifest.body.exact.reasoning_resolution).toBe('not-applicable');
  });
});

// ---------------------------------------------------------------------------------------------

const homes = useFaultHomes(KEY_ENV);
const PROMPT = 'keep  these  bytes\tand\nthis line';
const chunk = (parts: unknown[], finishReason?: string): Record<string, unknown> => ({
  candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
  usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 9, totalTokenCount: 129 },
  modelVersion: 'local-gemini',
});

/** A home whose route is a config route on the fault server that speaks the Gemini dialect. */
async function geminiHome(): Promise<string> {
  return homes.home('chat-completions', {
    route: 'local-gemini',
    routes: {
      'local-gemini': {
        provider: 'custom',
        dialect: 'gemini-generate-content',
        base_url: `${homes.server.origin}/v1beta`,
        model: 'local-gemini',
        api_key_env: KEY_ENV,
      },
    },
  });
}

function stream(...events: Record<string, unknown>[]): FaultHandler {
  // Replies are checked against the published GenerateContentResponse; an error event is a Status, not one.
  for (const event of events) if (!('error' in event)) expect(validateGeminiReply(event).errors).toEqual([]);
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const event of events) response.write(data(event).replace(/\n/g, '\r\n'));
    response.end();
  };
}

describe('cw send on a config route that speaks the Gemini dialect, to 127.0.0.1', () => {
  for (const entrypoint of ['streaming', 'blocking'] as Entrypoint[]) {
    it(`${entrypoint}: the previewed body, on the wire's URL and key header`, async () => {
      const home = await geminiHome();
      const env = homes.envFor(home);
      const flags = entrypoint === 'blocking' ? ['--blocking'] : [];
      const preview = await runCwChild(['preview-request', 'json', ...flags, '--prompt', PROMPT], env);
      expect(preview.code, preview.stderr).toBe(0);
      expectValidManifest(preview.stdout);
      const manifest = JSON.parse(preview.stdout) as {
        route: { exact: { registered_by: string; route_defined_by: string; dialect: string } };
        body: { exact: { body_sha256: string; body_wire_sha256: string } };
      };
      expect(manifest.route.exact).toMatchObject({
        registered_by: '@cw/provider-google',
        route_defined_by: 'user-config',
        dialect: 'gemini-generate-content',
      });

      const reply = chunk([{ text: 'parity ok' }], 'STOP');
      homes.server.next(
        entrypoint === 'streaming'
          ? stream(chunk([{ text: 'parity' }]), chunk([{ text: ' ok' }], 'STOP'))
          : json(200, reply),
      );
      const sent = await runCwChild(['send', ...flags, '--prompt', PROMPT], env);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout).toContain('parity ok');
      const received = homes.server.received.at(-1);
      expect(received?.path).toBe(
        entrypoint === 'streaming'
          ? '/v1beta/models/local-gemini:streamGenerateContent?alt=sse'
          : '/v1beta/models/local-gemini:generateContent',
      );
      expect(received?.headers['x-goog-api-key']).toBe(FAKE_KEY);
      expect(received?.headers['authorization']).toBeUndefined();
      const bytes = Buffer.from(received?.body ?? '', 'utf8');
      expect(sha256(canonicalize(JSON.parse(bytes.toString('utf8'))) ?? '')).toBe(manifest.body.exact.body_sha256);
      expect(sha256(bytes)).toBe(manifest.body.exact.body_wire_sha256);
      expect(validateWireBody('gemini-generate-content', JSON.parse(bytes.toString('utf8'))).errors).toEqual([]);
      const session = JSON.parse(await readFile(await sessionFile(home), 'utf8')) as {
        messages: { role: string; content: string; usage?: unknown }[];
      };
      expect(session.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
      expect(session.messages[1]).toMatchObject({
        content: 'parity ok',
        usage: { input_tokens: 120, output_tokens: 9 },
      });
    });
  }

  for (const [name, handler, words] of [
    [
      'a stream cut before finishReason',
      () => stream(chunk([{ text: 'half an ans' }])),
      'ended before the provider said it was complete',
    ],
    [
      'an error event inside the stream',
      () =>
        stream(chunk([{ text: 'so' }]), {
          error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' },
        } as never),
      'The model is overloaded.',
    ],
    [
      'a blocked prompt',
      () => stream({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 5 } }),
      'the prompt was blocked (SAFETY)',
    ],
  ] as const) {
    it(`${name} fails the turn and leaves no session behind`, async () => {
      const home = await geminiHome();
      homes.server.next(handler());
      const sent = await runCwChild(['send', '--prompt', 'hello'], homes.envFor(home));
      expect(sent.code).not.toBe(0);
      expect(sent.stderr).toContain(words);
      expect(sent.stderr).toContain('nothing was saved');
      await expect(readFile(await sessionFile(home))).rejects.toMatchObject({ code: 'ENOENT' });
    });
  }
});
