import type { JsonValue } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { decodeResponsesReply, responsesTextDelta } from './responses-decode-reply.js';

const textDelta = (delta: string, sequence = 0): JsonValue => ({
  type: 'response.output_text.delta',
  sequence_number: sequence,
  item_id: 'msg_1',
  output_index: 0,
  content_index: 0,
  delta,
});
const completed = (response: JsonValue): JsonValue => ({ type: 'response.completed', sequence_number: 99, response });

describe('decodeResponsesReply: SSE', () => {
  it('joins text split across deltas; the completed response supplies text and usage', () => {
    const reply = decodeResponsesReply({
      kind: 'sse',
      events: [
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
      ],
    });
    expect(reply).toEqual({ text: 'Hello, world', toolCalls: [], usage: { input_tokens: 137, output_tokens: 24 } });
  });

  it('prefers the completed response text over the deltas when both are present', () => {
    const reply = decodeResponsesReply({
      kind: 'sse',
      events: [
        textDelta('partial'),
        completed({ output: [{ type: 'message', content: [{ type: 'output_text', text: 'final' }] }] }),
      ],
    });
    expect(reply.text).toBe('final');
  });

  it('falls back to the streamed text when the completed response has none', () => {
    const reply = decodeResponsesReply({
      kind: 'sse',
      events: [
        textDelta('stre'),
        textDelta('amed'),
        completed({ output: [], usage: { input_tokens: 5, output_tokens: 2 } }),
      ],
    });
    expect(reply).toEqual({ text: 'streamed', toolCalls: [], usage: { input_tokens: 5, output_tokens: 2 } });
  });

  it('takes tool calls from the function_call output items of the completed response, not from argument deltas', () => {
    const reply = decodeResponsesReply({
      kind: 'sse',
      events: [
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
      ],
    });
    expect(reply).toEqual({
      text: '',
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'call_b', name: 'list_dir', arguments: '{"dir":"src"}' },
      ],
      usage: { input_tokens: 300, output_tokens: 45 },
    });
  });

  it('text and calls together: message text and function_call items from one completed response', () => {
    const reply = decodeResponsesReply({
      kind: 'sse',
      events: [
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
      ],
    });
    expect(reply).toEqual({
      text: 'Reading.',
      toolCalls: [{ id: 'call_a', name: 'read_file', arguments: '{}' }],
      usage: { input_tokens: 1, output_tokens: 2 },
    });
  });

  it('stops at the completed event: later events add nothing', () => {
    const reply = decodeResponsesReply({
      kind: 'sse',
      events: [textDelta('a'), completed({ output: [] }), textDelta('b')],
    });
    expect(reply.text).toBe('a');
  });

  it('without a completed event: the streamed text, no calls, no usage', () => {
    const reply = decodeResponsesReply({
      kind: 'sse',
      events: [
        textDelta('cut '),
        textDelta('short'),
        { type: 'response.function_call_arguments.delta', delta: '{"x"' },
      ],
    });
    expect(reply).toEqual({ text: 'cut short', toolCalls: [], usage: null });
  });

  it('usage with a missing count is null', () => {
    const reply = decodeResponsesReply({
      kind: 'sse',
      events: [completed({ output: [], usage: { input_tokens: 3 } })],
    });
    expect(reply.usage).toBeNull();
  });

  it('survives odd and empty events: no crash, empty text, no calls', () => {
    const reply = decodeResponsesReply({
      kind: 'sse',
      events: [
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
      ],
    });
    expect(reply).toEqual({ text: '', toolCalls: [], usage: null });
  });

  it('a completed event without a response object is an empty reply', () => {
    expect(decodeResponsesReply({ kind: 'sse', events: [{ type: 'response.completed' }] })).toEqual({
      text: '',
      toolCalls: [],
      usage: null,
    });
  });

  it('no events at all is an empty reply', () => {
    expect(decodeResponsesReply({ kind: 'sse', events: [] })).toEqual({ text: '', toolCalls: [], usage: null });
  });
});

describe('decodeResponsesReply: JSON', () => {
  it('reads text, calls and usage from a whole response object', () => {
    const reply = decodeResponsesReply({
      kind: 'json',
      body: {
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
      },
    });
    expect(reply).toEqual({
      text: 'Let me look.',
      toolCalls: [{ id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' }],
      usage: { input_tokens: 50, output_tokens: 8 },
    });
  });

  it('a body with missing or odd fields decodes to an empty reply', () => {
    for (const body of [
      null,
      'text',
      [],
      {},
      { output: 'x' },
      { output: [{ type: 'message' }], usage: 'none' },
    ] as JsonValue[]) {
      expect(decodeResponsesReply({ kind: 'json', body })).toEqual({ text: '', toolCalls: [], usage: null });
    }
  });
});

describe('responsesTextDelta', () => {
  it('returns the delta of one output_text delta event', () => {
    expect(responsesTextDelta(textDelta('abc'))).toBe('abc');
  });

  it('returns undefined for every other event, an empty delta, or a malformed one', () => {
    expect(responsesTextDelta(textDelta(''))).toBeUndefined();
    expect(responsesTextDelta({ type: 'response.output_text.done', text: 'whole' })).toBeUndefined();
    expect(responsesTextDelta({ type: 'response.function_call_arguments.delta', delta: '{"a"' })).toBeUndefined();
    expect(responsesTextDelta({ type: 'response.reasoning_summary_text.delta', delta: 'thinking' })).toBeUndefined();
    expect(responsesTextDelta({ type: 'response.refusal.delta', delta: 'no' })).toBeUndefined();
    expect(
      responsesTextDelta(
        completed({ output: [{ type: 'message', content: [{ type: 'output_text', text: 'final' }] }] }),
      ),
    ).toBeUndefined();
    expect(responsesTextDelta({ type: 'response.output_text.delta', delta: 7 })).toBeUndefined();
    expect(responsesTextDelta(null)).toBeUndefined();
    expect(responsesTextDelta('response.output_text.delta')).toBeUndefined();
  });
});

describe('decodeResponsesReply: a response cut at the output cap', () => {
  it('keeps the output and usage an incomplete response carries', () => {
    const response: JsonValue = {
      status: 'incomplete',
      output: [
        { type: 'message', content: [{ type: 'output_text', text: 'partial answ' }] },
        { type: 'function_call', call_id: 'call_9', name: 'read_file', arguments: '{"path":"a"}' },
      ],
      usage: { input_tokens: 10, output_tokens: 64 },
    };
    const reply = decodeResponsesReply({
      kind: 'sse',
      events: [textDelta('partial answ'), { type: 'response.incomplete', response }],
    });
    expect(reply).toEqual({
      text: 'partial answ',
      toolCalls: [{ id: 'call_9', name: 'read_file', arguments: '{"path":"a"}' }],
      usage: { input_tokens: 10, output_tokens: 64 },
    });
  });
});
