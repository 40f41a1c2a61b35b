// cw send against a local server that misbehaves the way real providers do. A reply counts only when
// its dialect says it finished; every failure exits 1 with one line that says what happened, and
// leaves the session byte-identical. The server is started by the tests, on 127.0.0.1.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_KEY, writeSession, sessionFile } from './support/cw-fixture.js';
import { useFaultHomes, type FaultDialect as Dialect } from './support/fault-home.js';
import { data, type FaultHandler, json, sse, startFaultServer } from './support/fault-server.js';
import { runCw } from './support/run-cw.js';

const KEY_ENV = 'CW_FAULT_TEST_KEY';
const PROMPT = 'say the secret word';
const HISTORY = [
  { role: 'user', content: 'hello' },
  { role: 'assistant', content: 'hi there' },
];

/**
 * Per dialect: a complete reply, the same reply cut before its terminal event, and its in-stream error
 * forms; for a wire that does not stream server-sent events, its content type and what an empty
 * stream of it looks like.
 */
interface Wire {
  readonly complete: string[];
  readonly errors: string[][];
  readonly completeJson: unknown;
  readonly wrongJson: unknown;
  /** A stream with one event of no known shape (at position 2), then the dialect's terminal event. */
  readonly noShape: string[];
  readonly contentType?: string;
  readonly empty?: string[];
}

const geminiChunk = (text: string, finishReason?: string): Record<string, unknown> => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, ...(finishReason ? { finishReason } : {}), index: 0 }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2 },
});
const ollamaLine = (content: string, done = false): string =>
  `${JSON.stringify({ model: 'm', message: { role: 'assistant', content }, done, ...(done ? { done_reason: 'stop', eval_count: 2 } : {}) })}\n`;

const WIRE: Record<Dialect, Wire> = {
  'gemini-generate-content': {
    complete: [data(geminiChunk('all ')), data(geminiChunk('good')), data(geminiChunk('', 'STOP'))],
    errors: [[data(geminiChunk('par')), data({ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } })]],
    completeJson: geminiChunk('all good', 'STOP'),
    wrongJson: { choices: [{ message: { content: 'all good' } }] },
    noShape: [data(geminiChunk('all ')), data({ foo: 'bar' }), data(geminiChunk('good', 'STOP'))],
  },
  'ollama-chat': {
    complete: [ollamaLine('all '), ollamaLine('good'), ollamaLine('', true)],
    errors: [[ollamaLine('par'), `${JSON.stringify({ error: 'model runner has unexpectedly stopped' })}\n`]],
    completeJson: { model: 'm', message: { role: 'assistant', content: 'all good' }, done: true, done_reason: 'stop' },
    wrongJson: { model: 'm', message: { role: 'assistant', content: 'all good' }, done: false },
    noShape: [ollamaLine('all '), '{"foo":"bar"}\n', ollamaLine('good', true)],
    contentType: 'application/x-ndjson',
    empty: ['\n', '\n'],
  },
  'chat-completions': {
    complete: [
      data({ choices: [{ delta: { content: 'all ' } }] }),
      data({ choices: [{ delta: { content: 'good' }, finish_reason: 'stop' }] }),
      'data: [DONE]\n\n',
    ],
    errors: [
      [
        data({ choices: [{ delta: { content: 'par' } }] }),
        data({ error: { message: 'overloaded', type: 'server_error' } }),
      ],
    ],
    completeJson: { choices: [{ message: { role: 'assistant', content: 'all good' }, finish_reason: 'stop' }] },
    wrongJson: { result: 'all good' },
    noShape: [
      data({ choices: [{ delta: { content: 'all ' } }] }),
      data({ foo: 'bar', choices: 'x' }),
      'data: [DONE]\n\n',
    ],
  },
  'anthropic-messages': {
    complete: [
      data({ type: 'message_start', message: { usage: { input_tokens: 10 } } }, 'message_start'),
      data(
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'all good' } },
        'content_block_delta',
      ),
      data({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }, 'message_delta'),
      data({ type: 'message_stop' }, 'message_stop'),
    ],
    errors: [
      [
        data(
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'par' } },
          'content_block_delta',
        ),
        data({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error'),
      ],
    ],
    completeJson: {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'all good' }],
      stop_reason: 'end_turn',
    },
    wrongJson: { content: 'all good' },
    noShape: [
      data(
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'all ' } },
        'content_block_delta',
      ),
      data({ foo: 'bar' }),
      data({ type: 'message_stop' }, 'message_stop'),
    ],
  },
  'openai-responses': {
    complete: [
      data({ type: 'response.output_text.delta', delta: 'all good' }),
      data({
        type: 'response.completed',
        response: { status: 'completed', output: [], usage: { input_tokens: 10, output_tokens: 2 } },
      }),
    ],
    errors: [
      [
        data({ type: 'response.output_text.delta', delta: 'par' }),
        data({ type: 'error', code: 'server_error', message: 'boom' }),
      ],
      [
        data({ type: 'response.output_text.delta', delta: 'par' }),
        data({
          type: 'response.failed',
          response: { status: 'failed', error: { code: 'server_error', message: 'boom' } },
        }),
      ],
    ],
    completeJson: null,
    wrongJson: { output: 'all good' },
    noShape: [
      data({ type: 'response.output_text.delta', delta: 'all ' }),
      data({ foo: 'bar' }),
      data({ type: 'response.completed', response: { status: 'completed', output: [] } }),
    ],
  },
};

const DIALECTS = Object.keys(WIRE) as Dialect[];

/** Answers with the dialect's stream content type and these blocks. */
function stream(dialect: Dialect, ...blocks: string[]): FaultHandler {
  const type = WIRE[dialect].contentType;
  if (type === undefined) return sse(...blocks);
  return (_request, response) => {
    response.writeHead(200, { 'content-type': type });
    for (const block of blocks) response.write(block);
    response.end();
  };
}

describe('dispatch against a misbehaving provider', () => {
  const fault = useFaultHomes(KEY_ENV);
  afterEach(() => {
    delete process.env['CW_HOME'];
    delete process.env[KEY_ENV];
  });

  /** A home whose route points at the fault server, with two turns of history already saved. */
  async function home(
    dialect: Dialect,
    extra: Record<string, unknown> = {},
  ): Promise<{ home: string; session: () => Promise<string> }> {
    const folder = await fault.home(dialect, {
      timeouts: { connect_ms: 2_000, first_byte_ms: 2_000, idle_ms: 2_000, total_ms: 10_000 },
      ...extra,
    });
    await writeSession(folder, 'default', HISTORY);
    process.env['CW_HOME'] = folder;
    process.env[KEY_ENV] = FAKE_KEY;
    return { home: folder, session: async () => readFile(await sessionFile(folder), 'utf8') };
  }

  /** Runs one send and checks it failed closed: exit 1, one cw line, the session untouched. */
  async function failsClosed(dialect: Dialect, argv: string[], extra: Record<string, unknown> = {}) {
    const { session } = await home(dialect, extra);
    const before = await session();
    const run = await runCw(['send', ...argv, '--prompt', PROMPT]);
    expect(run.exitCode).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^cw: /);
    expect(await session()).toBe(before);
    expect(run.stdout + run.stderr).not.toContain(FAKE_KEY);
    return run;
  }

  for (const dialect of DIALECTS) {
    describe(dialect, () => {
      it('a complete stream is saved', async () => {
        const { session } = await home(dialect);
        fault.server.next(stream(dialect, ...WIRE[dialect].complete));
        const run = await runCw(['send', '--prompt', PROMPT]);
        expect(run.exitCode).toBe(0);
        expect(run.stdout).toBe('all good\n');
        expect(JSON.parse(await session()).messages).toHaveLength(4);
      });

      it('a stream cut before its terminal event is incomplete; the streamed text ends its line', async () => {
        fault.server.next(stream(dialect, ...WIRE[dialect].complete.slice(0, -1)));
        const run = await failsClosed(dialect, []);
        expect(run.stdout).toBe('all good\n');
        expect(run.stderr).toContain('the reply ended before the provider said it was complete');
      });

      it('an event stream whose body is an HTML page says so, and where to look', async () => {
        fault.server.next(
          sse('<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body>proxy login</body></html>\n'),
        );
        const run = await failsClosed(dialect, []);
        expect(run.stderr).toContain(
          `the provider sent an HTML page, not a ${dialect} reply; check the route's base_url`,
        );
        expect(run.stderr).not.toContain('ended before the provider said it was complete');
      });

      it('a stream with no data lines is incomplete', async () => {
        fault.server.next(stream(dialect, ...(WIRE[dialect].empty ?? [': keep-alive\n\n', ': still here\n\n'])));
        const run = await failsClosed(dialect, []);
        expect(run.stderr).toContain('ended before the provider said it was complete');
      });

      for (const [index, blocks] of WIRE[dialect].errors.entries()) {
        it(`an error event inside the stream (form ${index + 1}) is a provider error`, async () => {
          fault.server.next(stream(dialect, ...blocks));
          const run = await failsClosed(dialect, []);
          expect(run.stderr).toContain('the provider reported an error inside its reply');
        });
      }

      it('a JSON reply of the wrong shape is malformed', async () => {
        fault.server.next(json(200, WIRE[dialect].wrongJson));
        const run = await failsClosed(dialect, ['--blocking']);
        expect(run.stderr).toContain('does not have the shape of a');
      });

      it('a stream event of no known shape is malformed: named by its position, never its content', async () => {
        fault.server.next(stream(dialect, ...WIRE[dialect].noShape));
        const run = await failsClosed(dialect, []);
        expect(run.stderr).toContain(`event 2 of the provider's reply does not have the shape of a ${dialect} event`);
        expect(run.stderr).not.toMatch(/foo|bar/);
      });

      it('--json prints the failure as a JSON object on stdout', async () => {
        fault.server.next(stream(dialect, ...WIRE[dialect].complete.slice(0, -1)));
        const run = await failsClosed(dialect, ['--json']);
        const printed = JSON.parse(run.stdout) as { error: { kind: string; status: number | null; message: string } };
        expect(printed.error.kind).toBe('incomplete');
        expect(printed.error.status).toBe(200);
        expect(printed.error.message).toContain('ended before');
      });
    });
  }

  it('a redirect is not followed: the other address receives neither the body nor the key', async () => {
    const other = await startFaultServer();
    try {
      fault.server.next((_request, response) => {
        response.writeHead(307, { location: `${other.origin}/v1/messages` });
        response.end();
      });
      const run = await failsClosed('anthropic-messages', []);
      expect(run.stderr).toContain('redirect (HTTP 307)');
      expect(other.received).toEqual([]);
      expect(fault.server.received.at(-1)?.headers['x-api-key']).toBe(FAKE_KEY);
    } finally {
      await other.close();
    }
  });

  it('a server that never answers hits the first-byte timeout, named as such', async () => {
    fault.server.next(() => undefined);
    const run = await failsClosed('chat-completions', [], {
      timeouts: { connect_ms: 2_000, first_byte_ms: 300, idle_ms: 2_000, total_ms: 10_000 },
    });
    expect(run.stderr).toContain('(first-byte timeout, config timeouts.first_byte_ms)');
  });

  it('keep-alive comments are not progress: a stream of only comments hits the idle timeout', async () => {
    fault.server.next((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(data({ choices: [{ delta: { content: 'par' } }] }));
      const ping = setInterval(() => response.write(': ping\n\n'), 50);
      response.on('close', () => clearInterval(ping));
    });
    const run = await failsClosed('chat-completions', [], {
      timeouts: { connect_ms: 2_000, first_byte_ms: 2_000, idle_ms: 400, total_ms: 10_000 },
    });
    expect(run.stderr).toContain('(idle timeout, config timeouts.idle_ms)');
  });

  it('retries a 503 and a 429 with retry-after-ms, then succeeds; each retry is announced', async () => {
    const { session } = await home('chat-completions');
    fault.server.next(
      json(503, { error: { message: 'busy' } }),
      json(429, { error: { message: 'slow down' } }, { 'retry-after-ms': '20' }),
      sse(...WIRE['chat-completions'].complete),
    );
    const count = fault.server.received.length;
    const run = await runCw(['send', '--prompt', PROMPT]);
    expect(run.exitCode).toBe(0);
    expect(fault.server.received.length - count).toBe(3);
    expect(run.stderr).toContain('retry 1 of 2 in');
    expect(run.stderr).toContain('HTTP 503');
    expect(run.stderr).toContain('retry 2 of 2 in 20 ms');
    expect(JSON.parse(await session()).messages).toHaveLength(4);
  });

  it('gives up after the retries and says what the provider answered; --max-retries 0 sends once', async () => {
    fault.server.next(...Array.from({ length: 3 }, () => json(503, { error: { message: 'still busy' } })));
    let count = fault.server.received.length;
    const run = await failsClosed('chat-completions', []);
    expect(fault.server.received.length - count).toBe(3);
    expect(run.stderr).toContain('HTTP 503: still busy');
    fault.server.next(json(503, { error: { message: 'still busy' } }));
    count = fault.server.received.length;
    await failsClosed('chat-completions', ['--max-retries', '0']);
    expect(fault.server.received.length - count).toBe(1);
  });

  it('a 400 is not retried', async () => {
    fault.server.next(json(400, { error: { message: 'bad field', type: 'invalid_request_error' } }));
    const count = fault.server.received.length;
    const run = await failsClosed('chat-completions', []);
    expect(fault.server.received.length - count).toBe(1);
    expect(run.stderr).toContain('HTTP 400: invalid_request_error: bad field');
  });

  it("shows the provider's error text without the key, the prompt or other secrets", async () => {
    fault.server.next(
      json(404, {
        error: {
          type: 'invalid_request_error',
          code: 'model_not_found',
          message: `model 'qwen' not found (key ${FAKE_KEY}, prompt "${PROMPT}", token ghp_${'A1b2'.repeat(6)})\u001b[31m`,
        },
      }),
    );
    const run = await failsClosed('chat-completions', []);
    expect(run.stderr).toContain("HTTP 404: invalid_request_error (model_not_found): model 'qwen' not found");
    expect(run.stderr).not.toContain(PROMPT);
    expect(run.stderr).not.toContain('ghp_');
    expect(run.stderr).not.toContain('\u001b');
  });

  it('a 401 names the key variable of the route', async () => {
    fault.server.next(json(401, { error: { message: 'invalid api key' } }));
    const run = await failsClosed('chat-completions', []);
    expect(run.stderr).toContain(`check the key in ${KEY_ENV}`);
  });

  it('a reply larger than max_reply_bytes is an error, not a truncated success', async () => {
    const big = data({ choices: [{ delta: { content: 'x'.repeat(4_000) } }] });
    fault.server.next(sse(big, big, 'data: [DONE]\n\n'));
    const run = await failsClosed('chat-completions', [], { max_reply_bytes: 5_000 });
    expect(run.stderr).toContain('larger than 5000 bytes');
  });

  it('a completed blocking JSON reply is saved', async () => {
    const { session } = await home('anthropic-messages');
    fault.server.next(json(200, WIRE['anthropic-messages'].completeJson));
    const run = await runCw(['send', '--blocking', '--prompt', PROMPT]);
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(await session()).messages.at(-1)).toMatchObject({ role: 'assistant', content: 'all good' });
  });

  it.each([
    ['?api-version=1', 'must not carry a query'],
    ['#top', 'must not carry a fragment'],
  ])('a base_url with %s is refused at load, naming the field', async (suffix, words) => {
    await home('chat-completions', {
      routes: {
        fault: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: `${fault.server.origin}/v1${suffix}`,
          model: 'm',
        },
      },
    });
    const count = fault.server.received.length;
    const run = await runCw(['send', '--prompt', PROMPT]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^cw: config\\.json:1:\\d+: routes\\.fault\\.base_url: ${words}${words.includes('query') ? ' \\(\\?\\.\\.\\.\\): base_url ends where the path cw appends begins' : ' \\(#\\.\\.\\.\\)'}; found a string\n$`,
      ),
    );
    expect(fault.server.received.length).toBe(count);
  });

  it('a base_url with user info is refused at load and the secret is not printed', async () => {
    await home('chat-completions', {
      routes: {
        fault: {
          provider: 'custom',
          dialect: 'chat-completions',
          base_url: 'http://me:hunter2@127.0.0.1:9/v1',
          model: 'm',
        },
      },
    });
    const run = await runCw(['preview-request', 'json', '--prompt', PROMPT]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('.base_url: must not carry user info');
    expect(run.stderr).not.toContain('hunter2');
  });
});
