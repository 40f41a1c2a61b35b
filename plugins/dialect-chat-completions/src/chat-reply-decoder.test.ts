import { assembleReply } from '../../../core/src/reply/assemble-reply.js';
import type { JsonValue, WireEvent } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { body, decoding, sse } from '../../../test/support/reply-decoding.js';
import { createChatDecoder } from './chat-reply-decoder.js';

const { turnEvents, decode } = decoding(createChatDecoder);
/** A whole stream: the chunks, then [DONE]. */
const stream = (data: readonly JsonValue[]): WireEvent[] => [...sse(data), { kind: 'done' }];

/** One `chat.completion.chunk` with a single choice carrying `delta`. */
function chunk(delta: JsonValue, extra: { [key: string]: JsonValue } = {}): JsonValue {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: null }],
    usage: null,
    ...extra,
  };
}

const finishChunk = (reason: string): JsonValue =>
  chunk({}, { choices: [{ index: 0, delta: {}, finish_reason: reason }] });

const usageChunk: JsonValue = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
};

describe('chat decoder: stream', () => {
  it('joins text split across chunks and takes usage from the final empty-choices chunk', () => {
    const reply = decode(
      stream([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo, ' }),
        chunk({ content: 'world' }),
        finishChunk('stop'),
        usageChunk,
      ]),
    );
    expect(reply.reply()).toEqual({
      text: 'Hello, world',
      toolCalls: [],
      usage: { input_tokens: 42, output_tokens: 7 },
      replay: [],
    });
    expect(reply.finishReason).toBe('stop');
    expect(reply.error).toBeNull();
  });

  it('emits text as it arrives, one text-delta per chunk with content', () => {
    const decoder = createChatDecoder();
    expect(decoder.push({ kind: 'event', name: null, data: chunk({ role: 'assistant', content: '' }) })).toEqual([]);
    expect(decoder.push({ kind: 'event', name: null, data: chunk({ content: 'Hel' }) })).toEqual([
      { type: 'text-delta', text: 'Hel' },
    ]);
  });

  it('emits no text for empty content, role-only, tool-call, usage and malformed chunks', () => {
    for (const data of [
      chunk({ content: '' }),
      chunk({ role: 'assistant' }),
      chunk({ content: null }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
      usageChunk,
      null,
      'data',
      { choices: [{ delta: { content: 12 } }] },
    ]) {
      const events = createChatDecoder().push({ kind: 'event', name: null, data });
      expect(events.filter((event) => event.type === 'text-delta')).toEqual([]);
    }
  });

  it('folds tool-call argument fragments by index, keeping id and name from the first fragment', () => {
    const reply = decode(
      stream([
        chunk({ role: 'assistant', content: 'Checking.' }),
        chunk({
          tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
        chunk({
          tool_calls: [
            { index: 1, id: 'call_b', type: 'function', function: { name: 'list_dir', arguments: '{"dir"' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"a.txt"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: ':"src"}' } }] }),
        finishChunk('tool_calls'),
        usageChunk,
      ]),
    );
    expect(reply.reply()).toEqual({
      text: 'Checking.',
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'call_b', name: 'list_dir', arguments: '{"dir":"src"}' },
      ],
      usage: { input_tokens: 42, output_tokens: 7 },
      replay: [],
    });
    expect(reply.finishReason).toBe('tool_calls');
  });

  it('each call starts once and ends at [DONE], before the finish', () => {
    const events = turnEvents(
      stream([
        chunk({ tool_calls: [{ index: 0, id: 'c0', function: { name: 'f', arguments: '{' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '}' } }] }),
        finishChunk('tool_calls'),
      ]),
    );
    expect(events).toEqual([
      { type: 'tool-call-start', index: 0, id: 'c0', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('two calls in one chunk land in their own slots', () => {
    const reply = decode(
      stream([
        chunk({
          tool_calls: [
            { index: 0, id: 'c0', function: { name: 'f', arguments: '{}' } },
            { index: 1, id: 'c1', function: { name: 'g', arguments: '{"x":1}' } },
          ],
        }),
      ]),
    );
    expect(reply.reply().toolCalls).toEqual([
      { id: 'c0', name: 'f', arguments: '{}' },
      { id: 'c1', name: 'g', arguments: '{"x":1}' },
    ]);
  });

  it('a fragment without an index opens the next call', () => {
    const reply = decode(
      stream([
        chunk({ tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{}' } }] }),
        chunk({ tool_calls: [{ id: 'b', function: { name: 'g', arguments: '{}' } }] }),
      ]),
    );
    expect(reply.reply().toolCalls.map((call) => call.id)).toEqual(['a', 'b']);
  });

  it('a later fragment that repeats id or name does not replace the first', () => {
    const reply = decode(
      stream([
        chunk({ tool_calls: [{ index: 0, id: 'first', function: { name: 'read_file', arguments: '{' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'second', function: { name: 'other', arguments: '}' } }] }),
      ]),
    );
    expect(reply.reply().toolCalls).toEqual([{ id: 'first', name: 'read_file', arguments: '{}' }]);
  });

  it('without a usage chunk, usage is null (chunks with usage: null do not count)', () => {
    const reply = decode(stream([chunk({ content: 'hi' })]));
    expect(reply.reply()).toEqual({ text: 'hi', toolCalls: [], usage: null, replay: [] });
  });

  it('a chunk after the usage chunk with usage: null does not erase it', () => {
    const reply = decode(stream([chunk({ content: 'hi' }), usageChunk, chunk({})]));
    expect(reply.reply().usage).toEqual({ input_tokens: 42, output_tokens: 7 });
  });

  it('usage with a missing count is null, not half a pair', () => {
    const reply = decode(stream([{ choices: [], usage: { prompt_tokens: 3 } }]));
    expect(reply.reply().usage).toBeNull();
  });

  it('survives odd and empty events: no crash, empty text, no calls', () => {
    const reply = decode(
      stream([
        null,
        'x',
        7,
        [],
        {},
        { choices: null },
        { choices: [null] },
        { choices: [{ delta: null }] },
        { choices: [{ delta: { content: 5, tool_calls: 'no' } }] },
      ]),
    );
    expect(reply.reply()).toEqual({ text: '', toolCalls: [], usage: null, replay: [] });
    expect(reply.error).toBeNull();
  });

  it('no events at all is an empty reply with no finish', () => {
    const reply = decode([]);
    expect(reply.reply()).toEqual({ text: '', toolCalls: [], usage: null, replay: [] });
    expect(reply.finishReason).toBeNull();
  });

  it('reasoning_content is reasoning, not reply text', () => {
    const events = turnEvents(stream([chunk({ reasoning_content: 'thinking...' }), chunk({ content: 'answer' })]));
    expect(events).toContainEqual({ type: 'reasoning-delta', text: 'thinking...' });
    const reply = assembleReply(events);
    expect(reply.reply().text).toBe('answer');
    expect(reply.reasoningText).toBe('thinking...');
  });

  it('reads only the first choice', () => {
    const reply = decode(stream([{ choices: [{ delta: {} }, { delta: { content: 'second' } }] }]));
    expect(reply.reply().text).toBe('');
  });
});

describe('chat decoder: finish only on [DONE]', () => {
  it('the finish reason is the last non-null finish_reason', () => {
    const reply = decode(stream([chunk({ content: 'a' }), finishChunk('length'), usageChunk]));
    expect(reply.finishReason).toBe('length');
  });

  it('[DONE] without any finish_reason finishes with "stop"', () => {
    expect(decode(stream([chunk({ content: 'a' })])).finishReason).toBe('stop');
  });

  it('a stream cut before [DONE] has no finish, even after a finish_reason chunk', () => {
    const reply = decode(sse([chunk({ content: 'partial' }), finishChunk('stop'), usageChunk]));
    expect(reply.finishReason).toBeNull();
    expect(reply.reply()).toEqual({
      text: 'partial',
      toolCalls: [],
      usage: { input_tokens: 42, output_tokens: 7 },
      replay: [],
    });
  });

  it('a cut stream still closes its open tool calls at the end', () => {
    const events = turnEvents(sse([chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f' } }] })]));
    expect(events.at(-1)).toEqual({ type: 'tool-call-end', index: 0 });
    expect(events.some((event) => event.type === 'finish')).toBe(false);
  });

  it('nothing after [DONE] counts', () => {
    const reply = decode([...stream([chunk({ content: 'a' })]), ...sse([chunk({ content: 'late' })])]);
    expect(reply.reply().text).toBe('a');
  });
});

describe('chat decoder: in-stream errors', () => {
  it('a chunk with an error object is a provider error, with its type as the code', () => {
    const reply = decode(
      sse([
        chunk({ content: 'par' }),
        { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } },
      ]),
    );
    expect(reply.error).toEqual({ code: 'server_error', message: 'The server had an error' });
    expect(reply.finishReason).toBeNull();
  });

  it('falls back to a string code, and to null when neither is a string', () => {
    expect(decode(sse([{ error: { code: 'rate_limit', message: 'slow down' } }])).error).toEqual({
      code: 'rate_limit',
      message: 'slow down',
    });
    expect(
      decode(sse([{ error: { code: 502, message: 'upstream' }, choices: [{ delta: {}, finish_reason: 'error' }] }]))
        .error,
    ).toEqual({ code: null, message: 'upstream' });
  });

  it('an error key that is not an object is not an error', () => {
    expect(decode(stream([{ error: 'x' }, { error: null }])).error).toBeNull();
  });
});

describe('chat decoder: JSON body', () => {
  it('reads text, tool calls and usage from choices[0].message, and finishes with its finish_reason', () => {
    const reply = decode(
      body({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Let me look.',
              tool_calls: [
                { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
                { id: 'call_b', type: 'function', function: { name: 'list_dir', arguments: '{}' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      }),
    );
    expect(reply.reply()).toEqual({
      text: 'Let me look.',
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'call_b', name: 'list_dir', arguments: '{}' },
      ],
      usage: { input_tokens: 100, output_tokens: 20 },
      replay: [],
    });
    expect(reply.finishReason).toBe('tool_calls');
  });

  it('content null (a tool-call-only reply) decodes to empty text', () => {
    const reply = decode(
      body({
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
            },
          },
        ],
      }),
    );
    expect(reply.reply()).toEqual({
      text: '',
      toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }],
      usage: null,
      replay: [],
    });
    expect(reply.finishReason).toBe('stop');
  });

  it('reasoning_content of the message is reasoning', () => {
    const reply = decode(body({ choices: [{ message: { reasoning_content: 'because', content: 'ok' } }] }));
    expect(reply.reasoningText).toBe('because');
    expect(reply.reply().text).toBe('ok');
  });

  it('a body with missing or odd fields decodes to an empty reply', () => {
    for (const value of [
      null,
      'text',
      [],
      {},
      { choices: [] },
      { choices: [{}] },
      { choices: [{ message: { content: 3, tool_calls: {} } }] },
    ] as JsonValue[]) {
      expect(decode(body(value)).reply()).toEqual({ text: '', toolCalls: [], usage: null, replay: [] });
    }
  });

  it('a body without a choices[0].message object has no finish', () => {
    for (const value of [
      null,
      'text',
      [],
      {},
      { choices: [] },
      { choices: [{}] },
      { choices: [{ message: 'hi' }] },
      { choices: { 0: { message: {} } } },
      { usage: { prompt_tokens: 1, completion_tokens: 1 } },
    ] as JsonValue[]) {
      expect(decode(body(value)).finishReason).toBeNull();
    }
  });

  it('a body carrying an error object is a provider error and no finish', () => {
    const reply = decode(body({ error: { message: 'Invalid key', type: 'invalid_request_error' } }));
    expect(reply.error).toEqual({ code: 'invalid_request_error', message: 'Invalid key' });
    expect(reply.finishReason).toBeNull();
  });
});

describe('chat decoder: replay items', () => {
  const toolCallChunk = chunk({
    tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
  });

  it('streamed: the reasoning_content joined across chunks is one replay item, just before the finish', () => {
    const events = turnEvents(
      stream([
        chunk({ role: 'assistant', content: null, reasoning_content: 'Need ' }),
        chunk({ reasoning_content: 'the file.' }),
        toolCallChunk,
        finishChunk('tool_calls'),
        usageChunk,
      ]),
    );
    expect(events.slice(-3)).toEqual([
      { type: 'tool-call-end', index: 0 },
      { type: 'replay-item', item: { reasoning_content: 'Need the file.' } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
    expect(events.filter((event) => event.type === 'replay-item')).toHaveLength(1);
    const reply = assembleReply(events);
    expect(reply.reply()).toEqual({
      text: '',
      toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{}' }],
      usage: { input_tokens: 42, output_tokens: 7 },
      replay: [{ reasoning_content: 'Need the file.' }],
    });
    expect(reply.reasoningText).toBe('Need the file.');
  });

  it('streamed: no reasoning_content, or only empty ones, is no replay item', () => {
    expect(decode(stream([chunk({ content: 'hi' }), finishChunk('stop')])).reply().replay).toEqual([]);
    expect(
      decode(stream([chunk({ reasoning_content: '' }), chunk({ reasoning_content: null, content: 'hi' })])).reply()
        .replay,
    ).toEqual([]);
  });

  it('streamed: a stream cut before [DONE] has no finish and no replay item', () => {
    const reply = decode(sse([chunk({ reasoning_content: 'half' })]));
    expect(reply.finishReason).toBeNull();
    expect(reply.reply().replay).toEqual([]);
  });

  it('blocking: message.reasoning_content is one replay item, just before the finish', () => {
    const events = turnEvents(
      body({
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              reasoning_content: 'Need the file.',
              tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 3, completion_tokens: 2 },
      }),
    );
    expect(events.slice(-2)).toEqual([
      { type: 'replay-item', item: { reasoning_content: 'Need the file.' } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
    expect(decode(body({ choices: [{ message: { content: 'ok' } }] })).reply().replay).toEqual([]);
  });
});

describe('chat decoder: events of no known chunk shape', () => {
  it('a non-object, or an object without choices, error or usage, is malformed at its position', () => {
    for (const odd of [[1, 2, 3], 'text', null, 7, { foo: 'bar' }, { choices: 'x' }, { choices: [1] }] as JsonValue[]) {
      const reply = decode(stream([chunk({ content: 'a' }), odd, finishChunk('stop')]));
      expect(reply.malformedAt, JSON.stringify(odd)).toBe(2);
    }
  });

  it('chunks with choices, an error object or only usage are known shapes', () => {
    const reply = decode(stream([chunk({ content: 'a' }), { usage: { prompt_tokens: 1, completion_tokens: 1 } }]));
    expect(reply.malformedAt).toBeNull();
    expect(decode(stream([{ error: { message: 'boom' } }])).malformedAt).toBeNull();
    const nullChoices = decode(
      stream([chunk({ content: 'a' }), { choices: null, usage: { prompt_tokens: 2, completion_tokens: 1 } }]),
    );
    expect(nullChoices.malformedAt).toBeNull();
    expect(nullChoices.reply().usage).toEqual({ input_tokens: 2, output_tokens: 1 });
  });
});

describe('chat decoder: cache reads', () => {
  const answer = (usage: JsonValue): JsonValue => ({
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage,
  });

  it('reads prompt_tokens_details.cached_tokens as cache reads, part of the prompt tokens', () => {
    const usage = { prompt_tokens: 1_000, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 800 } };
    expect(decode(body(answer(usage))).reply().usage).toEqual({
      input_tokens: 1_000,
      output_tokens: 5,
      cache_read_tokens: 800,
    });
  });

  it("reads DeepSeek's prompt_cache_hit_tokens the same way", () => {
    const usage = {
      prompt_tokens: 1_000,
      completion_tokens: 5,
      prompt_cache_hit_tokens: 640,
      prompt_cache_miss_tokens: 360,
    };
    expect(decode(body(answer(usage))).reply().usage).toEqual({
      input_tokens: 1_000,
      output_tokens: 5,
      cache_read_tokens: 640,
    });
  });
});
