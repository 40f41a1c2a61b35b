import type { JsonValue } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { anthropicTextDelta, decodeAnthropicReply } from './anthropic-decode-reply.js';

const messageStart: JsonValue = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    content: [],
    model: 'm',
    stop_reason: null,
    usage: { input_tokens: 120, output_tokens: 1 },
  },
};
const textDelta = (index: number, text: string): JsonValue => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'text_delta', text },
});
const jsonDelta = (index: number, partial: string): JsonValue => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json: partial },
});
const messageDelta = (outputTokens: number, stopReason = 'end_turn'): JsonValue => ({
  type: 'message_delta',
  delta: { stop_reason: stopReason, stop_sequence: null },
  usage: { output_tokens: outputTokens },
});

describe('decodeAnthropicReply: SSE', () => {
  it('joins text split across deltas; input tokens from message_start, output tokens from message_delta', () => {
    const reply = decodeAnthropicReply({
      kind: 'sse',
      events: [
        messageStart,
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'ping' },
        textDelta(0, 'Hel'),
        textDelta(0, 'lo, '),
        textDelta(0, 'world'),
        { type: 'content_block_stop', index: 0 },
        messageDelta(15),
        { type: 'message_stop' },
      ],
    });
    expect(reply).toEqual({ text: 'Hello, world', toolCalls: [], usage: { input_tokens: 120, output_tokens: 15 } });
  });

  it('builds tool calls from content_block_start plus input_json_delta fragments, keyed by block index', () => {
    const reply = decodeAnthropicReply({
      kind: 'sse',
      events: [
        messageStart,
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        textDelta(0, 'Reading both.'),
        { type: 'content_block_stop', index: 0 },
        {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: {} },
        },
        jsonDelta(1, ''),
        jsonDelta(1, '{"pa'),
        jsonDelta(1, 'th":"a.txt"}'),
        { type: 'content_block_stop', index: 1 },
        {
          type: 'content_block_start',
          index: 2,
          content_block: { type: 'tool_use', id: 'toolu_b', name: 'list_dir', input: {} },
        },
        jsonDelta(2, '{"dir":'),
        jsonDelta(2, '"src"}'),
        { type: 'content_block_stop', index: 2 },
        messageDelta(40, 'tool_use'),
        { type: 'message_stop' },
      ],
    });
    expect(reply).toEqual({
      text: 'Reading both.',
      toolCalls: [
        { id: 'toolu_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'toolu_b', name: 'list_dir', arguments: '{"dir":"src"}' },
      ],
      usage: { input_tokens: 120, output_tokens: 40 },
    });
  });

  it('an input_json_delta for a block that is not a tool_use adds nothing', () => {
    const reply = decodeAnthropicReply({ kind: 'sse', events: [jsonDelta(3, '{"x":1}'), textDelta(0, 'ok')] });
    expect(reply).toEqual({ text: 'ok', toolCalls: [], usage: null });
  });

  it('thinking and signature deltas are not reply text', () => {
    const reply = decodeAnthropicReply({
      kind: 'sse',
      events: [
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } },
        textDelta(1, 'answer'),
      ],
    });
    expect(reply.text).toBe('answer');
  });

  it('usage is null when either side is missing', () => {
    expect(decodeAnthropicReply({ kind: 'sse', events: [messageStart, textDelta(0, 'a')] }).usage).toBeNull();
    expect(decodeAnthropicReply({ kind: 'sse', events: [textDelta(0, 'a'), messageDelta(3)] }).usage).toBeNull();
  });

  it('survives odd and empty events: no crash, empty text, no calls', () => {
    const reply = decodeAnthropicReply({
      kind: 'sse',
      events: [
        null,
        'event',
        [],
        {},
        { type: 'message_start' },
        { type: 'message_start', message: { usage: null } },
        { type: 'content_block_start' },
        { type: 'content_block_start', index: 'zero', content_block: 'tool_use' },
        { type: 'content_block_delta' },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 7 } },
        { type: 'message_delta', usage: 'none' },
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ],
    });
    expect(reply).toEqual({ text: '', toolCalls: [], usage: null });
  });

  it('no events at all is an empty reply', () => {
    expect(decodeAnthropicReply({ kind: 'sse', events: [] })).toEqual({ text: '', toolCalls: [], usage: null });
  });
});

describe('decodeAnthropicReply: JSON', () => {
  it('joins the text blocks, turns tool_use input into an arguments text, and reads usage', () => {
    const reply = decodeAnthropicReply({
      kind: 'json',
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hidden', signature: 'sig' },
          { type: 'text', text: 'Reading ' },
          { type: 'text', text: 'both.' },
          { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.txt' } },
          { type: 'tool_use', id: 'toolu_b', name: 'list_dir', input: {} },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 200, output_tokens: 30, cache_read_input_tokens: 0 },
      },
    });
    expect(reply).toEqual({
      text: 'Reading both.',
      toolCalls: [
        { id: 'toolu_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'toolu_b', name: 'list_dir', arguments: '{}' },
      ],
      usage: { input_tokens: 200, output_tokens: 30 },
    });
  });

  it('a tool_use without input gets "{}" as arguments', () => {
    const reply = decodeAnthropicReply({ kind: 'json', body: { content: [{ type: 'tool_use', id: 't', name: 'n' }] } });
    expect(reply.toolCalls).toEqual([{ id: 't', name: 'n', arguments: '{}' }]);
  });

  it('a body with missing or odd fields decodes to an empty reply', () => {
    for (const body of [
      null,
      'text',
      [],
      {},
      { content: 'hi' },
      { content: [null, 1, { type: 'text' }] },
      { content: [], usage: { input_tokens: 1 } },
    ] as JsonValue[]) {
      expect(decodeAnthropicReply({ kind: 'json', body })).toEqual({ text: '', toolCalls: [], usage: null });
    }
  });
});

describe('anthropicTextDelta', () => {
  it('returns the text of one text_delta event', () => {
    expect(anthropicTextDelta(textDelta(0, 'abc'))).toBe('abc');
  });

  it('returns undefined for every other event, an empty text, or a malformed one', () => {
    expect(anthropicTextDelta(textDelta(0, ''))).toBeUndefined();
    expect(anthropicTextDelta(jsonDelta(1, '{"a":1}'))).toBeUndefined();
    expect(
      anthropicTextDelta({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }),
    ).toBeUndefined();
    expect(
      anthropicTextDelta({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'start' } }),
    ).toBeUndefined();
    expect(anthropicTextDelta({ type: 'message_delta', delta: { type: 'text_delta', text: 'no' } })).toBeUndefined();
    expect(anthropicTextDelta(messageStart)).toBeUndefined();
    expect(anthropicTextDelta({ type: 'content_block_delta', delta: { type: 'text_delta', text: 3 } })).toBeUndefined();
    expect(anthropicTextDelta(null)).toBeUndefined();
    expect(anthropicTextDelta('text_delta')).toBeUndefined();
  });
});

describe('decodeAnthropicReply: tools without parameters', () => {
  it('gives a streamed call with no input JSON the arguments "{}", as the blocking path does', () => {
    const events: JsonValue[] = [
      messageStart,
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'now', input: {} },
      },
      jsonDelta(0, ''),
      messageDelta(3, 'tool_use'),
    ];
    expect(decodeAnthropicReply({ kind: 'sse', events }).toolCalls).toEqual([
      { id: 'toolu_1', name: 'now', arguments: '{}' },
    ]);
    const blocking = decodeAnthropicReply({
      kind: 'json',
      body: { content: [{ type: 'tool_use', id: 'toolu_1', name: 'now', input: {} }] },
    });
    expect(blocking.toolCalls).toEqual([{ id: 'toolu_1', name: 'now', arguments: '{}' }]);
  });
});
