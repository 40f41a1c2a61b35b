import { assembleReply } from '../../../core/src/reply/assemble-reply.js';
import type { JsonValue } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { body, decoding, sse } from '../../../test/support/reply-decoding.js';
import { createResponsesDecoder } from './responses-reply-decoder.js';

const { turnEvents, decode } = decoding(createResponsesDecoder);

const textDelta = (delta: string, sequence = 0): JsonValue => ({
  type: 'response.output_text.delta',
  sequence_number: sequence,
  item_id: 'msg_1',
  output_index: 0,
  content_index: 0,
  delta,
});
const completed = (response: JsonValue): JsonValue => ({ type: 'response.completed', sequence_number: 99, response });

describe('responses decoder: stream', () => {
  it('joins text split across deltas; the completed response supplies usage and the finish', () => {
    const reply = decode(
      sse([
        { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } },
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { type: 'message', role: 'assistant', content: [] },
        },
        textDelta('Hel', 1),
        textDelta('lo, ', 2),
        textDelta('world', 3),
        { type: 'response.output_text.done', text: 'Hello, world' },
        completed({
          id: 'resp_1',
          status: 'completed',
          output: [
            {
              type: 'message',
              id: 'msg_1',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'Hello, world', annotations: [] }],
            },
          ],
          usage: {
            input_tokens: 137,
            output_tokens: 24,
            total_tokens: 161,
            output_tokens_details: { reasoning_tokens: 10 },
          },
        }),
      ]),
    );
    expect(reply.reply()).toEqual({
      text: 'Hello, world',
      toolCalls: [],
      usage: { input_tokens: 137, output_tokens: 24 },
      replay: [],
    });
    expect(reply.finishReason).toBe('completed');
  });

  it('emits text only for output_text deltas with text', () => {
    expect(createResponsesDecoder().push(sse([textDelta('abc')])[0]!)).toEqual([{ type: 'text-delta', text: 'abc' }]);
    for (const data of [
      textDelta(''),
      { type: 'response.function_call_arguments.delta', delta: '{"a"' },
      { type: 'response.reasoning_summary_text.delta', delta: 'thinking' },
      { type: 'response.refusal.delta', delta: 'no' },
      { type: 'response.output_text.delta', delta: 7 },
      null,
      'response.output_text.delta',
    ] as JsonValue[]) {
      const events = createResponsesDecoder().push({ kind: 'event', name: null, data });
      expect(events.filter((event) => event.type === 'text-delta')).toEqual([]);
    }
  });

  it('the completed response text replaces streamed text it does not extend', () => {
    const events = turnEvents(
      sse([
        textDelta('partial'),
        completed({ output: [{ type: 'message', content: [{ type: 'output_text', text: 'final' }] }] }),
      ]),
    );
    expect(events.filter((event) => event.type.startsWith('text-'))).toEqual([
      { type: 'text-delta', text: 'partial' },
      { type: 'text-replace', text: 'final' },
    ]);
    expect(assembleReply(events).reply().text).toBe('final');
  });

  it('the completed response supplies text the deltas did not carry', () => {
    const reply = decode(
      sse([
        textDelta('Hello'),
        completed({ output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hello, world' }] }] }),
      ]),
    );
    expect(reply.reply().text).toBe('Hello, world');
    const quiet = decode(
      sse([completed({ output: [{ type: 'message', content: [{ type: 'output_text', text: 'final' }] }] })]),
    );
    expect(quiet.reply().text).toBe('final');
  });

  it('falls back to the streamed text when the completed response has none', () => {
    const reply = decode(
      sse([
        textDelta('stre'),
        textDelta('amed'),
        completed({ output: [], usage: { input_tokens: 5, output_tokens: 2 } }),
      ]),
    );
    expect(reply.reply()).toEqual({
      text: 'streamed',
      toolCalls: [],
      usage: { input_tokens: 5, output_tokens: 2 },
      replay: [],
    });
  });

  it('takes tool calls from the function_call output items of the completed response, not from argument deltas', () => {
    const reply = decode(
      sse([
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { type: 'function_call', call_id: 'call_a', name: 'read_file', arguments: '' },
        },
        { type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"pa' },
        { type: 'response.function_call_arguments.delta', output_index: 0, delta: 'th":"a.txt"}' },
        { type: 'response.function_call_arguments.done', output_index: 0, arguments: '{"path":"a.txt"}' },
        completed({
          output: [
            { type: 'reasoning', id: 'rs_1', summary: [] },
            {
              type: 'function_call',
              id: 'fc_1',
              call_id: 'call_a',
              name: 'read_file',
              arguments: '{"path":"a.txt"}',
              status: 'completed',
            },
            {
              type: 'function_call',
              id: 'fc_2',
              call_id: 'call_b',
              name: 'list_dir',
              arguments: '{"dir":"src"}',
              status: 'completed',
            },
          ],
          usage: { input_tokens: 300, output_tokens: 45 },
        }),
      ]),
    );
    expect(reply.reply()).toEqual({
      text: '',
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'call_b', name: 'list_dir', arguments: '{"dir":"src"}' },
      ],
      usage: { input_tokens: 300, output_tokens: 45 },
      replay: [{ type: 'reasoning', id: 'rs_1', summary: [] }],
    });
  });

  it('text and calls together: message text and function_call items from one completed response', () => {
    const reply = decode(
      sse([
        textDelta('Reading.'),
        completed({
          output: [
            {
              type: 'message',
              role: 'assistant',
              content: [
                { type: 'output_text', text: 'Read' },
                { type: 'refusal', refusal: 'x' },
                { type: 'output_text', text: 'ing.' },
              ],
            },
            { type: 'function_call', call_id: 'call_a', name: 'read_file', arguments: '{}' },
          ],
          usage: { input_tokens: 1, output_tokens: 2 },
        }),
      ]),
    );
    expect(reply.reply()).toEqual({
      text: 'Reading.',
      toolCalls: [{ id: 'call_a', name: 'read_file', arguments: '{}' }],
      usage: { input_tokens: 1, output_tokens: 2 },
      replay: [],
    });
  });

  it('stops at the completed event: later events add nothing', () => {
    const reply = decode(sse([textDelta('a'), completed({ output: [] }), textDelta('b')]));
    expect(reply.reply().text).toBe('a');
  });

  it('usage with a missing count is null', () => {
    const reply = decode(sse([completed({ output: [], usage: { input_tokens: 3 } })]));
    expect(reply.reply().usage).toBeNull();
  });

  it('survives odd and empty events: no crash, empty text, no calls', () => {
    const reply = decode(
      sse([
        null,
        'response.output_text.delta',
        [],
        {},
        { type: 'response.output_text.delta' },
        { type: 'response.output_text.delta', delta: 5 },
        {
          type: 'response.completed',
          response: {
            output: [
              null,
              3,
              { type: 'message', content: 'x' },
              { type: 'message', content: [{ type: 'output_text' }] },
            ],
            usage: null,
          },
        },
      ]),
    );
    expect(reply.reply()).toEqual({ text: '', toolCalls: [], usage: null, replay: [] });
  });

  it('a completed event without a response object is an empty, finished reply', () => {
    const reply = decode(sse([{ type: 'response.completed' }]));
    expect(reply.reply()).toEqual({ text: '', toolCalls: [], usage: null, replay: [] });
    expect(reply.finishReason).toBe('completed');
  });

  it('no events at all is an empty reply with no finish', () => {
    const reply = decode([]);
    expect(reply.reply()).toEqual({ text: '', toolCalls: [], usage: null, replay: [] });
    expect(reply.finishReason).toBeNull();
  });

  it('reasoning summary and reasoning text deltas are reasoning, not reply text', () => {
    const events = turnEvents(
      sse([
        { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', delta: 'Plan: ' },
        { type: 'response.reasoning_text.delta', item_id: 'rs_1', delta: 'read a.txt' },
        { type: 'response.reasoning_summary_text.delta', delta: '' },
        textDelta('ok'),
      ]),
    );
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Plan: ' },
      { type: 'reasoning-delta', text: 'read a.txt' },
      { type: 'text-delta', text: 'ok' },
    ]);
    expect(assembleReply(events).reasoningText).toBe('Plan: read a.txt');
  });
});

describe('responses decoder: finish only on the terminal event', () => {
  it('without a completed event: the streamed text, no calls, no usage, no finish', () => {
    const reply = decode(
      sse([textDelta('cut '), textDelta('short'), { type: 'response.function_call_arguments.delta', delta: '{"x"' }]),
    );
    expect(reply.reply()).toEqual({ text: 'cut short', toolCalls: [], usage: null, replay: [] });
    expect(reply.finishReason).toBeNull();
  });

  it('a [DONE] sentinel is not the terminal event', () => {
    expect(decode([...sse([textDelta('a')]), { kind: 'done' }]).finishReason).toBeNull();
  });

  it('a response cut at the output cap keeps the output and usage it carries and finishes "incomplete"', () => {
    const response: JsonValue = {
      status: 'incomplete',
      output: [
        { type: 'message', content: [{ type: 'output_text', text: 'partial answ' }] },
        { type: 'function_call', call_id: 'call_9', name: 'read_file', arguments: '{"path":"a"}' },
      ],
      usage: { input_tokens: 10, output_tokens: 64 },
    };
    const reply = decode(sse([textDelta('partial answ'), { type: 'response.incomplete', response }]));
    expect(reply.reply()).toEqual({
      text: 'partial answ',
      toolCalls: [{ id: 'call_9', name: 'read_file', arguments: '{"path":"a"}' }],
      usage: { input_tokens: 10, output_tokens: 64 },
      replay: [],
    });
    expect(reply.finishReason).toBe('incomplete');
  });
});

describe('responses decoder: in-stream errors', () => {
  it('an error event is a provider error with its code', () => {
    const reply = decode(
      sse([
        textDelta('par'),
        { type: 'error', code: 'ERR_SOMETHING', message: 'Something went wrong', param: null, sequence_number: 3 },
      ]),
    );
    expect(reply.error).toEqual({ code: 'ERR_SOMETHING', message: 'Something went wrong' });
    expect(reply.finishReason).toBeNull();
  });

  it('an error event without a code has a null code, never the event type', () => {
    expect(decode(sse([{ type: 'error', code: null, message: 'm' }])).error).toEqual({ code: null, message: 'm' });
  });

  it('response.failed is a provider error from the response error, and no finish', () => {
    const reply = decode(
      sse([
        textDelta('a'),
        {
          type: 'response.failed',
          response: { status: 'failed', output: [], error: { code: 'server_error', message: 'The model failed' } },
        },
      ]),
    );
    expect(reply.error).toEqual({ code: 'server_error', message: 'The model failed' });
    expect(reply.finishReason).toBeNull();
  });
});

describe('responses decoder: JSON body', () => {
  it('reads text, calls and usage from a whole response object', () => {
    const reply = decode(
      body({
        id: 'resp_1',
        object: 'response',
        status: 'completed',
        output: [
          {
            type: 'message',
            role: 'assistant',
            content: [
              { type: 'output_text', text: 'Let me ' },
              { type: 'output_text', text: 'look.' },
            ],
          },
          { type: 'function_call', call_id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        ],
        usage: { input_tokens: 50, output_tokens: 8, total_tokens: 58 },
      }),
    );
    expect(reply.reply()).toEqual({
      text: 'Let me look.',
      toolCalls: [{ id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' }],
      usage: { input_tokens: 50, output_tokens: 8 },
      replay: [],
    });
    expect(reply.finishReason).toBe('completed');
  });

  it('an incomplete response body finishes "incomplete"', () => {
    expect(decode(body({ status: 'incomplete', output: [] })).finishReason).toBe('incomplete');
  });

  it('a body with missing or odd fields decodes to an empty reply', () => {
    for (const value of [
      null,
      'text',
      [],
      {},
      { output: 'x' },
      { output: [{ type: 'message' }], usage: 'none' },
    ] as JsonValue[]) {
      expect(decode(body(value)).reply()).toEqual({ text: '', toolCalls: [], usage: null, replay: [] });
    }
  });

  it('a body without an output array and a finished status has no finish', () => {
    for (const value of [
      null,
      'text',
      [],
      {},
      { output: [] },
      { output: 'x', status: 'completed' },
      { output: [], status: 'in_progress' },
      { output: [], status: 'failed' },
    ] as JsonValue[]) {
      expect(decode(body(value)).finishReason).toBeNull();
    }
  });

  it('a failed response body is a provider error and no finish', () => {
    const reply = decode(body({ status: 'failed', output: [], error: { code: 'server_error', message: 'down' } }));
    expect(reply.error).toEqual({ code: 'server_error', message: 'down' });
    expect(reply.finishReason).toBeNull();
  });
});

describe('responses decoder: replay items', () => {
  const reasoning: JsonValue = {
    type: 'reasoning',
    id: 'rs_1',
    summary: [{ type: 'summary_text', text: 'Checking the file.' }],
    encrypted_content: 'gAAAAenc==',
  };
  const call: JsonValue = {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_a',
    name: 'read_file',
    arguments: '{"path":"a.txt"}',
    status: 'completed',
  };
  const itemDone = (item: JsonValue, outputIndex = 0): JsonValue => ({
    type: 'response.output_item.done',
    output_index: outputIndex,
    item,
  });

  it('streamed: a reasoning item from response.output_item.done is one replay item, not repeated by the completed response', () => {
    const events = turnEvents(
      sse([
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAA' },
        },
        { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', delta: 'Checking the file.' },
        itemDone(reasoning),
        itemDone(call, 1),
        completed({ status: 'completed', output: [reasoning, call], usage: { input_tokens: 9, output_tokens: 4 } }),
      ]),
    );
    expect(events.filter((event) => event.type === 'replay-item')).toEqual([{ type: 'replay-item', item: reasoning }]);
    // It goes out when the item is done, before the completed response.
    expect(events.findIndex((event) => event.type === 'replay-item')).toBe(1);
    const reply = assembleReply(events);
    expect(reply.reply()).toEqual({
      text: '',
      toolCalls: [{ id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' }],
      usage: { input_tokens: 9, output_tokens: 4 },
      replay: [reasoning],
    });
    expect(reply.reasoningText).toBe('Checking the file.');
  });

  it('streamed: reasoning items only the completed response carries are replayed from it, in output order', () => {
    const second: JsonValue = { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'enc2' };
    const reply = decode(
      sse([itemDone(reasoning), completed({ status: 'completed', output: [reasoning, second, call] })]),
    );
    expect(reply.reply().replay).toEqual([reasoning, second]);
  });

  it('only reasoning items are replayed: done message and function_call items are not', () => {
    const events = turnEvents(
      sse([
        itemDone({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hi' }] }),
        itemDone(call),
        itemDone(null),
        { type: 'response.output_item.done' },
      ]),
    );
    expect(events.filter((event) => event.type === 'replay-item')).toEqual([]);
  });

  it('a reasoning item without an id is still replayed once', () => {
    const anonymous: JsonValue = { type: 'reasoning', summary: [] };
    const reply = decode(sse([itemDone(anonymous), completed({ status: 'completed', output: [anonymous] })]));
    expect(reply.reply().replay).toEqual([anonymous]);
  });

  it('blocking: the reasoning items of the output array, whole', () => {
    const reply = decode(
      body({
        object: 'response',
        status: 'completed',
        output: [
          reasoning,
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Reading.' }] },
          call,
        ],
        usage: { input_tokens: 5, output_tokens: 3 },
      }),
    );
    expect(reply.reply()).toEqual({
      text: 'Reading.',
      toolCalls: [{ id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' }],
      usage: { input_tokens: 5, output_tokens: 3 },
      replay: [reasoning],
    });
  });
});

describe('responses decoder: events of no known shape', () => {
  it('an event that is not an object naming its type is malformed at its position', () => {
    for (const odd of [[1, 2, 3], 'text', null, { foo: 'bar' }, { type: 7 }] as JsonValue[]) {
      const reply = decode(sse([textDelta('a'), odd, completed({ status: 'completed', output: [] })]));
      expect(reply.malformedAt, JSON.stringify(odd)).toBe(2);
    }
  });

  it('an event type new to cw (a hosted tool’s, say) is skipped', () => {
    const reply = decode(
      sse([
        textDelta('a'),
        { type: 'response.some_tool_call.in_progress' },
        completed({ status: 'completed', output: [] }),
      ]),
    );
    expect(reply.malformedAt).toBeNull();
    expect(reply.reply().text).toBe('a');
  });
});

describe('responses decoder: cache reads', () => {
  it('reads input_tokens_details.cached_tokens as cache reads, part of input_tokens', () => {
    const reply = decode(
      body({
        status: 'completed',
        output: [],
        usage: { input_tokens: 500, output_tokens: 3, input_tokens_details: { cached_tokens: 384 } },
      }),
    );
    expect(reply.reply().usage).toEqual({ input_tokens: 500, output_tokens: 3, cache_read_tokens: 384 });
  });
});
