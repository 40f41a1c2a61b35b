import { assembleReply } from '../../../core/src/reply/assemble-reply.js';
import type { JsonValue } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { body, decoding, sse } from '../../../test/support/reply-decoding.js';
import { createAnthropicDecoder } from './anthropic-reply-decoder.js';

const { turnEvents, decode } = decoding(createAnthropicDecoder);

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
const messageStop: JsonValue = { type: 'message_stop' };
/** A content_block_start opening a tool_use block with the input it comes with. */
const toolUseStart = (index: number, id: string, name: string, input: JsonValue = {}): JsonValue => ({
  type: 'content_block_start',
  index,
  content_block: { type: 'tool_use', id, name, input },
});

describe('anthropic decoder: stream', () => {
  it('joins text split across deltas; input tokens from message_start, output tokens from message_delta', () => {
    const reply = decode(
      sse([
        messageStart,
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'ping' },
        textDelta(0, 'Hel'),
        textDelta(0, 'lo, '),
        textDelta(0, 'world'),
        { type: 'content_block_stop', index: 0 },
        messageDelta(15),
        messageStop,
      ]),
    );
    expect(reply.reply()).toEqual({
      text: 'Hello, world',
      toolCalls: [],
      usage: { input_tokens: 120, output_tokens: 15 },
      replay: [],
    });
    expect(reply.finishReason).toBe('end_turn');
  });

  it('builds tool calls from content_block_start plus input_json_delta fragments, keyed by block index', () => {
    const reply = decode(
      sse([
        messageStart,
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        textDelta(0, 'Reading both.'),
        { type: 'content_block_stop', index: 0 },
        toolUseStart(1, 'toolu_a', 'read_file'),
        jsonDelta(1, ''),
        jsonDelta(1, '{"pa'),
        jsonDelta(1, 'th":"a.txt"}'),
        { type: 'content_block_stop', index: 1 },
        toolUseStart(2, 'toolu_b', 'list_dir'),
        jsonDelta(2, '{"dir":'),
        jsonDelta(2, '"src"}'),
        { type: 'content_block_stop', index: 2 },
        messageDelta(40, 'tool_use'),
        messageStop,
      ]),
    );
    expect(reply.reply()).toEqual({
      text: 'Reading both.',
      toolCalls: [
        { id: 'toolu_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'toolu_b', name: 'list_dir', arguments: '{"dir":"src"}' },
      ],
      usage: { input_tokens: 120, output_tokens: 40 },
      replay: [],
    });
    expect(reply.finishReason).toBe('tool_use');
  });

  it('a tool call ends at its content_block_stop', () => {
    const events = turnEvents(
      sse([toolUseStart(1, 't', 'f'), jsonDelta(1, '{"a":1}'), { type: 'content_block_stop', index: 1 }]),
    );
    expect(events).toEqual([
      { type: 'tool-call-start', index: 1, id: 't', name: 'f' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('an input_json_delta for a block that is not a tool_use adds nothing', () => {
    const reply = decode(sse([jsonDelta(3, '{"x":1}'), textDelta(0, 'ok')]));
    expect(reply.reply()).toEqual({ text: 'ok', toolCalls: [], usage: null, replay: [] });
  });

  it('thinking deltas are reasoning, not reply text; signature deltas are neither', () => {
    const events = turnEvents(
      sse([
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } },
        textDelta(1, 'answer'),
      ]),
    );
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'hmm' },
      { type: 'text-delta', text: 'answer' },
    ]);
    const reply = assembleReply(events);
    expect(reply.reply().text).toBe('answer');
    expect(reply.reasoningText).toBe('hmm');
  });

  it('emits text only for text_delta events with text', () => {
    for (const data of [
      textDelta(0, ''),
      jsonDelta(1, '{"a":1}'),
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'start' } },
      { type: 'message_delta', delta: { type: 'text_delta', text: 'no' } },
      messageStart,
      { type: 'content_block_delta', delta: { type: 'text_delta', text: 3 } },
      null,
      'text_delta',
    ] as JsonValue[]) {
      const events = createAnthropicDecoder().push({ kind: 'event', name: null, data });
      expect(events.filter((event) => event.type === 'text-delta')).toEqual([]);
    }
  });

  it('usage is null when either side is missing', () => {
    expect(decode(sse([messageStart, textDelta(0, 'a')])).reply().usage).toBeNull();
    expect(decode(sse([textDelta(0, 'a'), messageDelta(3)])).reply().usage).toBeNull();
  });

  it('survives odd and empty events: no crash, empty text, no calls', () => {
    const reply = decode(
      sse([
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
      ]),
    );
    expect(reply.reply()).toEqual({ text: '', toolCalls: [], usage: null, replay: [] });
    expect(reply.finishReason).toBeNull();
  });

  it('no events at all is an empty reply with no finish', () => {
    const reply = decode([]);
    expect(reply.reply()).toEqual({ text: '', toolCalls: [], usage: null, replay: [] });
    expect(reply.finishReason).toBeNull();
  });
});

describe('anthropic decoder: finish only on message_stop', () => {
  it('message_stop finishes with message_delta stop_reason', () => {
    expect(
      decode(sse([messageStart, textDelta(0, 'a'), messageDelta(2, 'max_tokens'), messageStop])).finishReason,
    ).toBe('max_tokens');
  });

  it('message_stop without a stop_reason finishes with "end_turn"', () => {
    expect(decode(sse([messageStart, textDelta(0, 'a'), messageStop])).finishReason).toBe('end_turn');
  });

  it('a stream cut before message_stop has no finish, even after message_delta', () => {
    const reply = decode(sse([messageStart, textDelta(0, 'partial'), messageDelta(5)]));
    expect(reply.finishReason).toBeNull();
    expect(reply.reply()).toEqual({
      text: 'partial',
      toolCalls: [],
      usage: { input_tokens: 120, output_tokens: 5 },
      replay: [],
    });
  });

  it('a [DONE] sentinel is not Anthropic’s terminal event', () => {
    expect(decode([...sse([messageStart, textDelta(0, 'a')]), { kind: 'done' }]).finishReason).toBeNull();
  });

  it('nothing after message_stop counts', () => {
    const reply = decode(sse([textDelta(0, 'a'), messageStop, textDelta(0, 'late')]));
    expect(reply.reply().text).toBe('a');
  });

  it('tool calls still open at message_stop are closed before the finish', () => {
    const events = turnEvents(sse([toolUseStart(0, 't', 'now'), messageStop]));
    expect(events.slice(-3)).toEqual([
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', reason: 'end_turn' },
    ]);
  });
});

describe('anthropic decoder: in-stream errors', () => {
  it('an error event is a provider error with its error type as the code', () => {
    const reply = decode(
      sse([
        messageStart,
        textDelta(0, 'par'),
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ]),
    );
    expect(reply.error).toEqual({ code: 'overloaded_error', message: 'Overloaded' });
    expect(reply.finishReason).toBeNull();
  });

  it('an error event without an error object still reports an error, with a null code', () => {
    expect(decode(sse([{ type: 'error' }])).error).toEqual({ code: null, message: '' });
  });
});

describe('anthropic decoder: usage', () => {
  it('message_delta usage is cumulative: each count it carries replaces the earlier one', () => {
    const reply = decode(
      sse([
        messageStart,
        textDelta(0, 'a'),
        { type: 'message_delta', delta: {}, usage: { output_tokens: 10 } },
        { type: 'message_delta', delta: {}, usage: { input_tokens: 130, output_tokens: 25 } },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 30 } },
        messageStop,
      ]),
    );
    expect(reply.reply().usage).toEqual({ input_tokens: 130, output_tokens: 30 });
  });

  it('reports running totals as usage events', () => {
    const events = turnEvents(
      sse([
        messageStart,
        { type: 'message_delta', delta: {}, usage: { output_tokens: 10 } },
        { type: 'message_delta', delta: {}, usage: { output_tokens: 25 } },
      ]),
    );
    expect(events).toEqual([
      { type: 'usage', usage: { input_tokens: 120, output_tokens: 10 } },
      { type: 'usage', usage: { input_tokens: 120, output_tokens: 25 } },
    ]);
  });

  it('the output count of message_start is not taken: message_delta reports it', () => {
    expect(decode(sse([messageStart])).reply().usage).toBeNull();
  });
});

describe('anthropic decoder: tool input', () => {
  it('a tool_use whose whole input comes with content_block_start decodes to that input', () => {
    const reply = decode(
      sse([
        messageStart,
        toolUseStart(0, 'toolu_1', 'read_file', { path: 'a.txt' }),
        { type: 'content_block_stop', index: 0 },
        messageDelta(3, 'tool_use'),
        messageStop,
      ]),
    );
    expect(reply.reply().toolCalls).toEqual([{ id: 'toolu_1', name: 'read_file', arguments: '{"path":"a.txt"}' }]);
  });

  it('streamed input_json_delta text wins over the input the block started with', () => {
    const reply = decode(
      sse([toolUseStart(0, 't', 'f', { a: 1 }), jsonDelta(0, '{"a":2}'), { type: 'content_block_stop', index: 0 }]),
    );
    expect(reply.reply().toolCalls).toEqual([{ id: 't', name: 'f', arguments: '{"a":2}' }]);
  });

  it('gives a streamed call with no input JSON the arguments "{}", as the blocking path does', () => {
    const events: JsonValue[] = [
      messageStart,
      toolUseStart(0, 'toolu_1', 'now'),
      jsonDelta(0, ''),
      messageDelta(3, 'tool_use'),
    ];
    expect(decode(sse(events)).reply().toolCalls).toEqual([{ id: 'toolu_1', name: 'now', arguments: '{}' }]);
    const blocking = decode(body({ content: [{ type: 'tool_use', id: 'toolu_1', name: 'now', input: {} }] }));
    expect(blocking.reply().toolCalls).toEqual([{ id: 'toolu_1', name: 'now', arguments: '{}' }]);
  });

  it('a tool_use block without any input decodes to "{}"', () => {
    const reply = decode(
      sse([{ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'now' } }]),
    );
    expect(reply.reply().toolCalls).toEqual([{ id: 't', name: 'now', arguments: '{}' }]);
  });
});

describe('anthropic decoder: JSON body', () => {
  it('joins the text blocks, turns tool_use input into an arguments text, and reads usage', () => {
    const reply = decode(
      body({
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
      }),
    );
    expect(reply.reply()).toEqual({
      text: 'Reading both.',
      toolCalls: [
        { id: 'toolu_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'toolu_b', name: 'list_dir', arguments: '{}' },
      ],
      usage: { input_tokens: 200, output_tokens: 30 },
      replay: [{ type: 'thinking', thinking: 'hidden', signature: 'sig' }],
    });
    expect(reply.reasoningText).toBe('hidden');
    expect(reply.finishReason).toBe('tool_use');
  });

  it('a message without a stop_reason finishes with "end_turn"', () => {
    expect(decode(body({ type: 'message', content: [{ type: 'text', text: 'hi' }] })).finishReason).toBe('end_turn');
  });

  it('a tool_use without input gets "{}" as arguments', () => {
    const reply = decode(body({ content: [{ type: 'tool_use', id: 't', name: 'n' }] }));
    expect(reply.reply().toolCalls).toEqual([{ id: 't', name: 'n', arguments: '{}' }]);
  });

  it('a body with missing or odd fields decodes to an empty reply', () => {
    for (const value of [
      null,
      'text',
      [],
      {},
      { content: 'hi' },
      { content: [null, 1, { type: 'text' }] },
      { content: [], usage: { input_tokens: 1 } },
    ] as JsonValue[]) {
      expect(decode(body(value)).reply()).toEqual({ text: '', toolCalls: [], usage: null, replay: [] });
    }
  });

  it('a body that is not a message with a content array has no finish', () => {
    for (const value of [
      null,
      'text',
      [],
      {},
      { content: [{ type: 'text', text: 'no type' }] },
      { type: 'message', content: 'hi' },
      { type: 'completion', content: [] },
    ] as JsonValue[]) {
      expect(decode(body(value)).finishReason).toBeNull();
    }
  });

  it('an error body is a provider error and no finish', () => {
    const reply = decode(body({ type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }));
    expect(reply.error).toEqual({ code: 'invalid_request_error', message: 'bad' });
    expect(reply.finishReason).toBeNull();
  });
});

describe('anthropic decoder: replay items', () => {
  const thinkingStart = (index: number): JsonValue => ({
    type: 'content_block_start',
    index,
    content_block: { type: 'thinking', thinking: '' },
  });
  const thinkingDelta = (index: number, thinking: string): JsonValue => ({
    type: 'content_block_delta',
    index,
    delta: { type: 'thinking_delta', thinking },
  });
  const signatureDelta = (index: number, signature: string): JsonValue => ({
    type: 'content_block_delta',
    index,
    delta: { type: 'signature_delta', signature },
  });
  const blockStop = (index: number): JsonValue => ({ type: 'content_block_stop', index });

  it('streamed: one replay item per thinking and redacted_thinking block, whole, in wire order', () => {
    const reply = decode(
      sse([
        messageStart,
        thinkingStart(0),
        thinkingDelta(0, 'Let me '),
        thinkingDelta(0, 'check.'),
        signatureDelta(0, 'EqQBsig=='),
        blockStop(0),
        { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy=' } },
        blockStop(1),
        { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
        textDelta(2, 'Reading.'),
        blockStop(2),
        toolUseStart(3, 'toolu_1', 'read_file'),
        jsonDelta(3, '{"path":"a.txt"}'),
        blockStop(3),
        messageDelta(40, 'tool_use'),
        messageStop,
      ]),
    );
    expect(reply.reply()).toEqual({
      text: 'Reading.',
      toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: '{"path":"a.txt"}' }],
      usage: { input_tokens: 120, output_tokens: 40 },
      replay: [
        { type: 'thinking', thinking: 'Let me check.', signature: 'EqQBsig==' },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy=' },
      ],
    });
    expect(reply.reasoningText).toBe('Let me check.');
  });

  it('streamed: the replay item goes out when its block closes; thinking deltas still stream as reasoning', () => {
    const events = turnEvents(sse([thinkingStart(0), thinkingDelta(0, 'hmm'), signatureDelta(0, 's'), blockStop(0)]));
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'hmm' },
      { type: 'replay-item', item: { type: 'thinking', thinking: 'hmm', signature: 's' } },
    ]);
  });

  it('streamed: thinking and signature the block started with are kept; deltas add to them', () => {
    const reply = decode(
      sse([
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: 'a', signature: 'x' } },
        thinkingDelta(0, 'b'),
        signatureDelta(0, 'y'),
        blockStop(0),
      ]),
    );
    expect(reply.reply().replay).toEqual([{ type: 'thinking', thinking: 'ab', signature: 'xy' }]);
  });

  it('streamed: a thinking block that never closes is not replayed; other blocks add no replay items', () => {
    const cut = decode(sse([messageStart, thinkingStart(0), thinkingDelta(0, 'half'), messageStop]));
    expect(cut.reply().replay).toEqual([]);
    const plain = decode(
      sse([
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        textDelta(0, 'hi'),
        signatureDelta(0, 'stray'),
        blockStop(0),
        toolUseStart(1, 't', 'f'),
        blockStop(1),
        blockStop(5),
        messageStop,
      ]),
    );
    expect(plain.reply().replay).toEqual([]);
  });

  it('blocking: thinking and redacted_thinking blocks of the content array, in order, in the form sent back', () => {
    const reply = decode(
      body({
        type: 'message',
        content: [
          { type: 'thinking', thinking: 'first', signature: 'sig1' },
          { type: 'text', text: 'Reading.' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 10, output_tokens: 5 },
      }),
    );
    expect(reply.reply()).toEqual({
      text: 'Reading.',
      toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: '{"path":"a.txt"}' }],
      usage: { input_tokens: 10, output_tokens: 5 },
      replay: [
        { type: 'thinking', thinking: 'first', signature: 'sig1' },
        { type: 'redacted_thinking', data: 'opaque' },
      ],
    });
    expect(reply.reasoningText).toBe('first');
  });
});

describe('anthropic decoder: events of no known shape', () => {
  it('an event that is not an object naming its type is malformed at its position', () => {
    for (const odd of [[1, 2, 3], 'text', null, { foo: 'bar' }, { type: 7 }] as JsonValue[]) {
      const reply = decode(sse([messageStart, odd, messageDelta(2), messageStop]));
      expect(reply.malformedAt, JSON.stringify(odd)).toBe(2);
    }
  });

  it('an event type new to cw is skipped, as the API versioning policy asks', () => {
    const reply = decode(
      sse([messageStart, { type: 'new_kind_of_event' }, textDelta(0, 'a'), messageDelta(2), messageStop]),
    );
    expect(reply.malformedAt).toBeNull();
    expect(reply.reply().text).toBe('a');
  });
});

describe('anthropic decoder: cache reads and writes', () => {
  it('adds them to input_tokens, which counts only the uncached input, and keeps them apart', () => {
    const reply = decode(
      body({
        type: 'message',
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 20, output_tokens: 9, cache_read_input_tokens: 1_000, cache_creation_input_tokens: 300 },
      }),
    );
    expect(reply.reply().usage).toEqual({
      input_tokens: 1_320,
      output_tokens: 9,
      cache_read_tokens: 1_000,
      cache_write_tokens: 300,
    });
  });
});
