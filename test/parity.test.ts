import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_KEY, removeHome, tempHome } from './support/cw-fixture.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { runCw } from './support/run-cw.js';
import { validateWireBody, type WireDialect } from './support/wire-schemas.js';

// Loopback, but never actually reached: nock intercepts fetch before any socket opens.
const ORIGIN = 'http://127.0.0.1:18080';
const KEY_ENV = 'CW_PARITY_TEST_KEY';

// What each dialect's endpoint answers: its path on each entry point, a streamed reply (SSE unless
// another content type is named) and a whole JSON reply (null: the dialect streams on both).
interface Reply {
  readonly path: string | ((entrypoint: 'streaming' | 'blocking') => string);
  readonly sse: string;
  readonly streamType?: string;
  readonly json: unknown;
}

const GEMINI_REPLY = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'parity ok' }] }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 137, candidatesTokenCount: 24, totalTokenCount: 161 },
};
const OLLAMA_DONE = {
  model: 'parity-model',
  created_at: '2026-08-21T10:00:00Z',
  message: { role: 'assistant', content: '' },
  done: true,
  done_reason: 'stop',
  prompt_eval_count: 137,
  eval_count: 24,
};

const REPLIES: Record<WireDialect, Reply> = {
  'gemini-generate-content': {
    path: (entrypoint) =>
      entrypoint === 'streaming'
        ? '/v1/models/parity-model:streamGenerateContent?alt=sse'
        : '/v1/models/parity-model:generateContent',
    sse: `data: ${JSON.stringify(GEMINI_REPLY)}\r\n\r\n`,
    json: GEMINI_REPLY,
  },
  'ollama-chat': {
    path: '/v1/api/chat',
    sse: `${JSON.stringify({ ...OLLAMA_DONE, message: { role: 'assistant', content: 'parity ok' }, done: false })}\n${JSON.stringify(OLLAMA_DONE)}\n`,
    streamType: 'application/x-ndjson',
    json: { ...OLLAMA_DONE, message: { role: 'assistant', content: 'parity ok' } },
  },
  'chat-completions': {
    path: '/v1/chat/completions',
    sse: 'data: {"choices":[{"delta":{"content":"parity ok"}}]}\n\ndata: {"choices":[],"usage":{"prompt_tokens":137,"completion_tokens":24}}\n\ndata: [DONE]\n\n',
    json: {
      choices: [{ message: { role: 'assistant', content: 'parity ok' } }],
      usage: { prompt_tokens: 137, completion_tokens: 24 },
    },
  },
  'anthropic-messages': {
    path: '/v1/messages',
    sse: [
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":137}}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"parity ok"}}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":24}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ].join(''),
    json: {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'parity ok' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 137, output_tokens: 24 },
    },
  },
  'openai-responses': {
    path: '/v1/responses',
    sse: [
      'data: {"type":"response.output_text.delta","delta":"parity ok"}\n\n',
      'data: {"type":"response.completed","response":{"output":[{"type":"message","content":[{"type":"output_text","text":"parity ok"}]}],"usage":{"input_tokens":137,"output_tokens":24}}}\n\n',
    ].join(''),
    json: null,
  },
};

const sha256 = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('preview and send agree byte for byte', () => {
  const homes: string[] = [];
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
    delete process.env['CW_HOME'];
    delete process.env[KEY_ENV];
  });
  afterAll(async () => {
    nock.enableNetConnect();
    await Promise.all(homes.map(removeHome));
  });

  for (const dialect of Object.keys(REPLIES) as WireDialect[]) {
    for (const entrypoint of ['streaming', 'blocking'] as const) {
      it(`${dialect}, ${entrypoint}`, async () => {
        const home = await tempHome({
          route: 'parity',
          routes: {
            parity: {
              provider: 'custom',
              dialect,
              base_url: `${ORIGIN}/v1`,
              model: 'parity-model',
              api_key_env: KEY_ENV,
            },
          },
        });
        homes.push(home);
        process.env['CW_HOME'] = home;
        process.env[KEY_ENV] = FAKE_KEY;
        const flags = entrypoint === 'blocking' ? ['--blocking'] : [];
        const prompt = 'keep  these  bytes\tand\nthis line';

        const preview = await runCw(['preview-request', 'json', ...flags, '--prompt', prompt]);
        expect(preview.exitCode).toBe(0);
        expectValidManifest(preview.stdout);
        const manifest = JSON.parse(preview.stdout) as {
          body: { exact: { body_sha256: string; body_wire_sha256: string } };
        };
        expect(manifest.body.exact.body_sha256).toMatch(/^[0-9a-f]{64}$/);

        let captured: Buffer | undefined;
        let authorization: string | undefined;
        const reply = REPLIES[dialect];
        const streams = entrypoint === 'streaming' || dialect === 'openai-responses';
        nock(ORIGIN)
          .post(typeof reply.path === 'string' ? reply.path : reply.path(entrypoint))
          // nock 15 hands a one-argument reply function the fetch Request: the raw bytes, unparsed.
          .reply(async (request: Request) => {
            captured = Buffer.from(await request.arrayBuffer());
            authorization =
              request.headers.get('authorization') ??
              request.headers.get('x-api-key') ??
              request.headers.get('x-goog-api-key') ??
              '';
            return streams
              ? ([200, reply.sse, { 'content-type': reply.streamType ?? 'text/event-stream' }] as const)
              : ([200, JSON.stringify(reply.json), { 'content-type': 'application/json' }] as const);
          });

        const sent = await runCw(['send', ...flags, '--prompt', prompt]);
        expect(sent.stderr).toBe('');
        expect(sent.exitCode).toBe(0);
        expect(sent.stdout).toContain('parity ok');
        expect(captured).toBeDefined();
        const wireBytes = captured as Buffer;

        // Independent canonicalization of what the server received.
        const received = JSON.parse(wireBytes.toString('utf8')) as unknown;
        expect(sha256(canonicalize(received) as string)).toBe(manifest.body.exact.body_sha256);
        expect(sha256(wireBytes)).toBe(manifest.body.exact.body_wire_sha256);
        expect(authorization).toContain(FAKE_KEY);
        const validation = validateWireBody(dialect, received);
        expect(validation.errors).toEqual([]);
        // The prompt reached the wire unchanged, and the turn was saved only after success.
        expect(wireBytes.toString('utf8')).toContain(JSON.stringify(prompt).slice(1, -1));
        const session = JSON.parse(await readFile(join(home, 'sessions', 'default.json'), 'utf8')) as {
          messages: unknown[];
        };
        expect(session.messages).toHaveLength(2);
      });
    }
  }
});
