// A local endpoint on 127.0.0.1 for parity tests: it keeps the raw bytes of every request and answers
// with a short text reply in the dialect it is told, streamed when the body asked for a stream
// and as one JSON document when it did not.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireDialect } from './wire-schemas.js';

/** The text every reply carries. */
export const REPLY_TEXT = 'parity ok';

/** One request as it arrived. */
export interface CapturedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body bytes, unparsed. */
  readonly bytes: Buffer;
}

/** A running capture endpoint. */
export interface CaptureEndpoint {
  readonly origin: string;
  readonly captured: CapturedRequest[];
  /** Sets the dialect of the replies to the next requests. */
  answerAs(dialect: WireDialect): void;
  close(): Promise<void>;
}

const USAGE = { chat: { prompt_tokens: 137, completion_tokens: 24 }, other: { input_tokens: 137, output_tokens: 24 } };

const sse = (events: readonly (readonly [string | null, unknown])[]): string =>
  events
    .map(
      ([event, data]) =>
        `${event === null ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    )
    .join('');

const STREAMED: Record<WireDialect, string> = {
  'chat-completions': sse([
    [null, { choices: [{ index: 0, delta: { role: 'assistant', content: REPLY_TEXT } }] }],
    [null, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }],
    [null, { choices: [], usage: USAGE.chat }],
    [null, '[DONE]'],
  ]),
  'anthropic-messages': sse([
    ['message_start', { type: 'message_start', message: { usage: { input_tokens: 137 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: REPLY_TEXT } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 24 } }],
    ['message_stop', { type: 'message_stop' }],
  ]),
  'openai-responses': sse([
    [null, { type: 'response.output_text.delta', delta: REPLY_TEXT }],
    [null, { type: 'response.completed', response: responseObject() }],
  ]),
  'gemini-generate-content': sse([[null, geminiReply()]]),
  'ollama-chat': `${JSON.stringify({ ...ollamaDone(), message: { role: 'assistant', content: REPLY_TEXT }, done: false })}\n${JSON.stringify(ollamaDone())}\n`,
};

// Dialects whose stream is not server-sent events name their content type here.
const STREAM_TYPE: Partial<Record<WireDialect, string>> = { 'ollama-chat': 'application/x-ndjson' };

const WHOLE: Record<WireDialect, unknown> = {
  'chat-completions': {
    choices: [{ index: 0, message: { role: 'assistant', content: REPLY_TEXT }, finish_reason: 'stop' }],
    usage: USAGE.chat,
  },
  'anthropic-messages': {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text: REPLY_TEXT }],
    stop_reason: 'end_turn',
    usage: USAGE.other,
  },
  'openai-responses': responseObject(),
  'gemini-generate-content': geminiReply(),
  'ollama-chat': { ...ollamaDone(), message: { role: 'assistant', content: REPLY_TEXT } },
};

function geminiReply(): unknown {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text: REPLY_TEXT }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 137, candidatesTokenCount: 24, totalTokenCount: 161 },
  };
}

function ollamaDone(): Record<string, unknown> {
  return {
    model: 'parity-model',
    created_at: '2026-08-21T10:00:00Z',
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: 'stop',
    prompt_eval_count: 137,
    eval_count: 24,
  };
}

function responseObject(): unknown {
  return {
    object: 'response',
    status: 'completed',
    output: [
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: REPLY_TEXT, annotations: [] }] },
    ],
    usage: USAGE.other,
  };
}

/** Starts a capture endpoint on an ephemeral loopback port. */
export async function startCaptureEndpoint(): Promise<CaptureEndpoint> {
  const captured: CapturedRequest[] = [];
  let dialect: WireDialect | null = null;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const bytes = Buffer.concat(chunks);
      captured.push({ path: request.url ?? '', headers: request.headers, bytes });
      if (dialect === null) {
        response.writeHead(500).end('no dialect set');
        return;
      }
      let streams = false;
      try {
        // A stream is asked for in the body, or (for dialects without a stream field) in the URL.
        streams =
          (JSON.parse(bytes.toString('utf8')) as { stream?: unknown }).stream === true ||
          (request.url ?? '').includes('alt=sse');
      } catch {
        response.writeHead(400).end('not JSON');
        return;
      }
      if (streams)
        response.writeHead(200, { 'content-type': STREAM_TYPE[dialect] ?? 'text/event-stream' }).end(STREAMED[dialect]);
      else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(WHOLE[dialect]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    captured,
    answerAs: (next) => {
      dialect = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
