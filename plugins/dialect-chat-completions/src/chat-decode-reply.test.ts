import type { JsonValue } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { chatTextDelta, decodeChatReply } from './chat-decode-reply.js';

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

const usageChunk: JsonValue = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
};

describe('decodeChatReply: SSE', () => {
  it('joins text split across chunks and takes usage from the final empty-choices chunk', () => {
    const reply = decodeChatReply({
      kind: 'sse',
      events: [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo, ' }),
        chunk({ content: 'world' }),
        chunk({}, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
        usageChunk,
      ],
    });
    expect(reply).toEqual({ text: 'Hello, world', toolCalls: [], usage: { input_tokens: 42, output_tokens: 7 } });
  });

  it('folds tool-call argument fragments by index, keeping id and name from the first fragment', () => {
    const reply = decodeChatReply({
      kind: 'sse',
      events: [
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
        chunk({}, { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
        usageChunk,
      ],
    });
    expect(reply).toEqual({
      text: 'Checking.',
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'call_b', name: 'list_dir', arguments: '{"dir":"src"}' },
      ],
      usage: { input_tokens: 42, output_tokens: 7 },
    });
  });

  it('two calls in one chunk land in their own slots', () => {
    const reply = decodeChatReply({
      kind: 'sse',
      events: [
        chunk({
          tool_calls: [
            { index: 0, id: 'c0', function: { name: 'f', arguments: '{}' } },
            { index: 1, id: 'c1', function: { name: 'g', arguments: '{"x":1}' } },
          ],
        }),
      ],
    });
    expect(reply.toolCalls).toEqual([
      { id: 'c0', name: 'f', arguments: '{}' },
      { id: 'c1', name: 'g', arguments: '{"x":1}' },
    ]);
  });

  it('a later fragment that repeats id or name does not replace the first', () => {
    const reply = decodeChatReply({
      kind: 'sse',
      events: [
        chunk({ tool_calls: [{ index: 0, id: 'first', function: { name: 'read_file', arguments: '{' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'second', function: { name: 'other', arguments: '}' } }] }),
      ],
    });
    expect(reply.toolCalls).toEqual([{ id: 'first', name: 'read_file', arguments: '{}' }]);
  });

  it('without a usage chunk, usage is null (chunks with usage: null do not count)', () => {
    const reply = decodeChatReply({ kind: 'sse', events: [chunk({ content: 'hi' })] });
    expect(reply).toEqual({ text: 'hi', toolCalls: [], usage: null });
  });

  it('a chunk after the usage chunk with usage: null does not erase it', () => {
    const reply = decodeChatReply({ kind: 'sse', events: [chunk({ content: 'hi' }), usageChunk, chunk({})] });
    expect(reply.usage).toEqual({ input_tokens: 42, output_tokens: 7 });
  });

  it('usage with a missing count is null, not half a pair', () => {
    const reply = decodeChatReply({ kind: 'sse', events: [{ choices: [], usage: { prompt_tokens: 3 } }] });
    expect(reply.usage).toBeNull();
  });

  it('survives odd and empty events: no crash, empty text, no calls', () => {
    const reply = decodeChatReply({
      kind: 'sse',
      events: [
        null,
        'x',
        7,
        [],
        {},
        { choices: null },
        { choices: [null] },
        { choices: [{ delta: null }] },
        { choices: [{ delta: { content: 5, tool_calls: 'no' } }] },
      ],
    });
    expect(reply).toEqual({ text: '', toolCalls: [], usage: null });
  });

  it('no events at all is an empty reply', () => {
    expect(decodeChatReply({ kind: 'sse', events: [] })).toEqual({ text: '', toolCalls: [], usage: null });
  });

  it('ignores reasoning_content: it is not reply text', () => {
    const reply = decodeChatReply({
      kind: 'sse',
      events: [chunk({ reasoning_content: 'thinking...' }), chunk({ content: 'answer' })],
    });
    expect(reply.text).toBe('answer');
  });
});

describe('decodeChatReply: JSON', () => {
  it('reads text, tool calls and usage from choices[0].message', () => {
    const reply = decodeChatReply({
      kind: 'json',
      body: {
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
      },
    });
    expect(reply).toEqual({
      text: 'Let me look.',
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'call_b', name: 'list_dir', arguments: '{}' },
      ],
      usage: { input_tokens: 100, output_tokens: 20 },
    });
  });

  it('content null (a tool-call-only reply) decodes to empty text', () => {
    const reply = decodeChatReply({
      kind: 'json',
      body: {
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
            },
          },
        ],
      },
    });
    expect(reply).toEqual({ text: '', toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }], usage: null });
  });

  it('a body with missing or odd fields decodes to an empty reply', () => {
    for (const body of [
      null,
      'text',
      [],
      {},
      { choices: [] },
      { choices: [{}] },
      { choices: [{ message: { content: 3, tool_calls: {} } }] },
    ] as JsonValue[]) {
      expect(decodeChatReply({ kind: 'json', body })).toEqual({ text: '', toolCalls: [], usage: null });
    }
  });
});

describe('chatTextDelta', () => {
  it('returns the content of one chunk', () => {
    expect(chatTextDelta(chunk({ content: 'abc' }))).toBe('abc');
  });

  it('returns undefined for empty content, role-only, tool-call, usage and malformed chunks', () => {
    expect(chatTextDelta(chunk({ content: '' }))).toBeUndefined();
    expect(chatTextDelta(chunk({ role: 'assistant' }))).toBeUndefined();
    expect(chatTextDelta(chunk({ content: null }))).toBeUndefined();
    expect(chatTextDelta(chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }))).toBeUndefined();
    expect(chatTextDelta(usageChunk)).toBeUndefined();
    expect(chatTextDelta(null)).toBeUndefined();
    expect(chatTextDelta('data')).toBeUndefined();
    expect(chatTextDelta({ choices: [{ delta: { content: 12 } }] })).toBeUndefined();
  });

  it('reads only the first choice', () => {
    expect(chatTextDelta({ choices: [{ delta: {} }, { delta: { content: 'second' } }] })).toBeUndefined();
  });
});
