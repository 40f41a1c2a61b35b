import type { JsonValue } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { body, decoding, sse } from '../../../test/support/reply-decoding.js';
import { validateGeminiReply } from '../../../test/support/wire-schemas.js';
import { createGeminiDecoder } from './gemini-reply-decoder.js';

const { turnEvents, decode } = decoding(createGeminiDecoder);
const SIG = 'c2lnbmVkLWNhbGw=';
const SIG_TEXT = 'c2lnbmVkLXRleHQ=';
const MADE_UP = /^cwgem_[0-9a-f]{24}$/;

/** One streamed GenerateContentResponse: the model's parts, usage so far, and a finish reason when it ends. */
function chunk(parts: JsonValue[], usage: JsonValue, finishReason?: string): JsonValue {
  return {
    candidates: [
      { content: { role: 'model', parts }, ...(finishReason === undefined ? {} : { finishReason }), index: 0 },
    ],
    usageMetadata: usage,
    modelVersion: 'gemini-flash-latest',
    responseId: 'resp-1',
  };
}

/** Every fixture reply is first checked against the published GenerateContentResponse. */
function published(items: JsonValue[]): JsonValue[] {
  for (const item of items) expect(validateGeminiReply(item).errors).toEqual([]);
  return items;
}

describe('gemini decoder: stream', () => {
  it('joins text across events, keeps the last cumulative usage, and finishes on finishReason', () => {
    const reply = decode(
      sse(
        published([
          chunk([{ text: 'Hel' }], { promptTokenCount: 40, candidatesTokenCount: 1, totalTokenCount: 41 }),
          chunk([{ text: 'lo.' }], { promptTokenCount: 40, candidatesTokenCount: 3, totalTokenCount: 43 }, 'STOP'),
        ]),
      ),
    );
    expect(reply.reply()).toEqual({
      text: 'Hello.',
      toolCalls: [],
      usage: { input_tokens: 40, output_tokens: 3 },
      replay: [],
    });
    expect(reply.finishReason).toBe('STOP');
    expect(reply.error).toBeNull();
  });

  it('thought parts are reasoning, not text; thinking tokens count as output; a signature on the text is kept', () => {
    const reply = decode(
      sse(
        published([
          chunk([{ text: 'Weighing it', thought: true }], { promptTokenCount: 10, thoughtsTokenCount: 30 }),
          chunk([{ text: 'Answer.' }], { promptTokenCount: 10, thoughtsTokenCount: 30, candidatesTokenCount: 2 }),
          chunk(
            [{ text: '', thoughtSignature: SIG_TEXT }],
            { promptTokenCount: 10, thoughtsTokenCount: 30, candidatesTokenCount: 2, totalTokenCount: 42 },
            'STOP',
          ),
        ]),
      ),
    );
    expect(reply.reply().text).toBe('Answer.');
    expect(reply.reasoningText).toBe('Weighing it');
    expect(reply.reply().usage).toEqual({ input_tokens: 10, output_tokens: 32 });
    expect(reply.reply().replay).toEqual([{ on: 'text', thoughtSignature: SIG_TEXT }]);
  });

  it('function calls come whole: each its own index, made-up ids unless the API sent one, signatures by call', () => {
    const events = sse(
      published([
        chunk(
          [
            { text: 'Reading.' },
            { functionCall: { name: 'read_file', args: { path: 'a' } }, thoughtSignature: SIG },
            { functionCall: { id: 'fc-7', name: 'read_file', args: { path: 'b' } } },
            { functionCall: { name: 'list_directory' } },
          ],
          { promptTokenCount: 50, candidatesTokenCount: 20, totalTokenCount: 70 },
          'STOP',
        ),
      ]),
    );
    const types = turnEvents(events).map((event) => event.type);
    expect(types.filter((type) => type === 'tool-call-start')).toHaveLength(3);
    expect(types.filter((type) => type === 'tool-call-end')).toHaveLength(3);
    expect(types.at(-1)).toBe('finish');
    const reply = decode(events).reply();
    expect(reply.text).toBe('Reading.');
    expect(reply.toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['read_file', '{"path":"a"}'],
      ['read_file', '{"path":"b"}'],
      ['list_directory', '{}'],
    ]);
    expect(reply.toolCalls[0]?.id).toMatch(MADE_UP);
    expect(reply.toolCalls[1]?.id).toBe('fc-7');
    expect(reply.toolCalls[2]?.id).toMatch(MADE_UP);
    expect(reply.toolCalls[0]?.id).not.toBe(reply.toolCalls[2]?.id);
    expect(reply.replay).toEqual([{ on: 'call', index: 0, thoughtSignature: SIG }]);
  });

  it('calls in separate events keep counting: the second event starts at the next index', () => {
    const reply = decode(
      sse(
        published([
          chunk([{ functionCall: { name: 'a', args: {} }, thoughtSignature: SIG }], { promptTokenCount: 1 }),
          chunk(
            [{ functionCall: { name: 'b', args: { n: 1 } } }],
            { promptTokenCount: 1, candidatesTokenCount: 4 },
            'STOP',
          ),
        ]),
      ),
    );
    expect(reply.reply().toolCalls.map((call) => call.name)).toEqual(['a', 'b']);
    expect(reply.reply().toolCalls[1]?.arguments).toBe('{"n":1}');
  });

  it('reports the finish reason as the provider names it (MAX_TOKENS, MALFORMED_FUNCTION_CALL)', () => {
    for (const reason of ['MAX_TOKENS', 'MALFORMED_FUNCTION_CALL', 'SAFETY']) {
      const reply = decode(
        sse(published([chunk([{ text: 'x' }], { promptTokenCount: 1, candidatesTokenCount: 1 }, reason)])),
      );
      expect(reply.finishReason).toBe(reason);
    }
  });

  it('a stream cut before finishReason has no finish: the text so far is not a reply', () => {
    const reply = decode(
      sse(
        published([
          chunk([{ text: 'partial' }], { promptTokenCount: 5, candidatesTokenCount: 1 }),
          chunk([{ functionCall: { name: 'read_file', args: { path: 'a' } } }], { promptTokenCount: 5 }),
        ]),
      ),
    );
    expect(reply.finishReason).toBeNull();
    // The call was closed when the wire ended, but without a finish the turn fails in the transport.
    expect(reply.reply().toolCalls).toHaveLength(1);
  });

  it('an error object inside the stream is a provider error, with the status as its code', () => {
    const reply = decode(
      sse([
        chunk([{ text: 'so' }], { promptTokenCount: 5 }),
        { error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } },
      ]),
    );
    expect(reply.error).toEqual({ code: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted' });
    expect(reply.finishReason).toBeNull();
  });

  it('a blocked prompt (no candidates, a blockReason) is a provider error', () => {
    const reply = decode(
      sse(
        published([{ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 9 } }]),
      ),
    );
    expect(reply.error).toEqual({ code: 'PROHIBITED_CONTENT', message: 'the prompt was blocked (PROHIBITED_CONTENT)' });
    expect(reply.finishReason).toBeNull();
  });

  it('events after the finish are not part of the reply', () => {
    const reply = decode(
      sse([
        chunk([{ text: 'done' }], { promptTokenCount: 1, candidatesTokenCount: 1 }, 'STOP'),
        chunk([{ text: ' and more' }], { promptTokenCount: 1, candidatesTokenCount: 9 }),
      ]),
    );
    expect(reply.reply().text).toBe('done');
    expect(reply.reply().usage).toEqual({ input_tokens: 1, output_tokens: 1 });
  });
});

describe('gemini decoder: whole body', () => {
  it('a whole response with finishReason is a finished reply', () => {
    const reply = decode(
      body(
        published([
          chunk(
            [{ text: 'Hi.' }, { functionCall: { name: 'read_file', args: { path: 'x' } }, thoughtSignature: SIG }],
            { promptTokenCount: 12, candidatesTokenCount: 6, thoughtsTokenCount: 4, totalTokenCount: 22 },
            'STOP',
          ),
        ])[0] as JsonValue,
      ),
    );
    expect(reply.finishReason).toBe('STOP');
    expect(reply.reply()).toMatchObject({
      text: 'Hi.',
      usage: { input_tokens: 12, output_tokens: 10 },
      replay: [{ on: 'call', index: 0, thoughtSignature: SIG }],
    });
    expect(reply.reply().toolCalls[0]).toMatchObject({ name: 'read_file', arguments: '{"path":"x"}' });
  });

  it('a body without finishReason, or of another shape, is not a finished reply', () => {
    expect(decode(body(chunk([{ text: 'Hi.' }], { promptTokenCount: 1 }))).finishReason).toBeNull();
    expect(decode(body({ choices: [] })).finishReason).toBeNull();
    expect(decode(body(['not', 'an', 'object'])).finishReason).toBeNull();
  });

  it('an error body is a provider error', () => {
    const reply = decode(body({ error: { code: 400, message: 'Invalid argument', status: 'INVALID_ARGUMENT' } }));
    expect(reply.error).toEqual({ code: 'INVALID_ARGUMENT', message: 'Invalid argument' });
  });
});

describe('gemini decoder: events of no known shape', () => {
  const part = (text: string, finishReason?: string): JsonValue => ({
    candidates: [
      { content: { role: 'model', parts: [{ text }] }, index: 0, ...(finishReason ? { finishReason } : {}) },
    ],
  });

  it('an event that is no GenerateContentResponse is malformed at its position', () => {
    for (const odd of [[1, 2, 3], 'text', null, { foo: 'bar' }, { candidates: 'x' }] as JsonValue[]) {
      const reply = decode(sse([part('a'), odd, part('b', 'STOP')]));
      expect(reply.malformedAt, JSON.stringify(odd)).toBe(2);
    }
  });

  it('a usage-only or a model-version-only response is a known shape', () => {
    const reply = decode(
      sse([part('a'), { usageMetadata: { promptTokenCount: 1 } }, { modelVersion: 'm' }, part('b', 'STOP')]),
    );
    expect(reply.malformedAt).toBeNull();
    expect(reply.reply().text).toBe('ab');
  });
});

describe('gemini decoder: cache reads', () => {
  it('reads cachedContentTokenCount as cache reads, part of promptTokenCount', () => {
    const reply = decode(
      body({
        candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 2_000, candidatesTokenCount: 4, cachedContentTokenCount: 1_024 },
      }),
    );
    expect(reply.reply().usage).toEqual({ input_tokens: 2_000, output_tokens: 4, cache_read_tokens: 1_024 });
  });
});
