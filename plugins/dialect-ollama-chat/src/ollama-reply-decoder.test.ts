import type { JsonValue } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { body, decoding, sse as lines } from '../../../test/support/reply-decoding.js';
import { createOllamaDecoder } from './ollama-reply-decoder.js';

const { turnEvents, decode } = decoding(createOllamaDecoder);
const AT = '2026-08-21T10:00:00.000Z';
const delta = (message: JsonValue): JsonValue => ({ model: 'qwen3', created_at: AT, message, done: false });
const done = (extra: { [key: string]: JsonValue } = {}): JsonValue => ({
  model: 'qwen3',
  created_at: AT,
  message: { role: 'assistant', content: '' },
  done: true,
  done_reason: 'stop',
  total_duration: 182242375,
  load_duration: 41295167,
  prompt_eval_count: 169,
  prompt_eval_duration: 24573166,
  eval_count: 15,
  eval_duration: 115959084,
  ...extra,
});

describe('ollama decoder: NDJSON stream', () => {
  it('thinking, then text; usage from the eval counts; finish on done with its done_reason', () => {
    const reply = decode(
      lines([
        delta({ role: 'assistant', content: '', thinking: 'Let' }),
        delta({ role: 'assistant', content: '', thinking: ' me see.' }),
        delta({ role: 'assistant', content: 'Hel' }),
        delta({ role: 'assistant', content: 'lo.' }),
        done(),
      ]),
    );
    expect(reply.reply()).toEqual({
      text: 'Hello.',
      toolCalls: [],
      usage: { input_tokens: 169, output_tokens: 15 },
      replay: [{ thinking: 'Let me see.' }],
    });
    expect(reply.reasoningText).toBe('Let me see.');
    expect(reply.finishReason).toBe('stop');
  });

  it('tool calls come whole in a line before done; arguments are objects; done_reason is still stop', () => {
    const events = lines([
      delta({
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_ab12cd34', function: { index: 0, name: 'get_weather', arguments: { city: 'Tokyo' } } },
          { function: { index: 1, name: 'get_time', arguments: {} } },
        ],
      }),
      done(),
    ]);
    const reply = decode(events).reply();
    expect(reply.toolCalls).toEqual([
      { id: 'call_ab12cd34', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
      { id: expect.stringMatching(/^call_[0-9a-f]{16}$/), name: 'get_time', arguments: '{}' },
    ]);
    const types = turnEvents(events).map((event) => event.type);
    expect(types.filter((type) => type === 'tool-call-end')).toHaveLength(2);
    expect(types.at(-1)).toBe('finish');
  });

  it('a count of zero is left out of the last line: it reads as zero', () => {
    const { prompt_eval_count: _cached, ...withoutPrompt } = done() as { [key: string]: JsonValue };
    const reply = decode(lines([delta({ role: 'assistant', content: 'x' }), withoutPrompt]));
    expect(reply.reply().usage).toEqual({ input_tokens: 0, output_tokens: 15 });
    expect(reply.finishReason).toBe('stop');
  });

  it('done_reason length is passed on as the provider says it', () => {
    expect(
      decode(lines([delta({ role: 'assistant', content: 'x' }), done({ done_reason: 'length' })])).finishReason,
    ).toBe('length');
  });

  it('a stream cut before done: true has no finish', () => {
    const reply = decode(lines([delta({ role: 'assistant', content: 'partial' })]));
    expect(reply.finishReason).toBeNull();
    expect(reply.reply().text).toBe('partial');
  });

  it('an error line under the 200 is a provider error, and no finish follows', () => {
    const reply = decode(
      lines([delta({ role: 'assistant', content: 'so' }), { error: 'model runner has unexpectedly stopped' }]),
    );
    expect(reply.error).toEqual({ code: null, message: 'model runner has unexpectedly stopped' });
    expect(reply.finishReason).toBeNull();
  });

  it('lines after done are not part of the reply', () => {
    const reply = decode(
      lines([delta({ role: 'assistant', content: 'a' }), done(), delta({ role: 'assistant', content: 'b' })]),
    );
    expect(reply.reply().text).toBe('a');
  });
});

describe('ollama decoder: unstreamed body', () => {
  it('one object with done: true is the whole reply', () => {
    const reply = decode(
      body(
        done({
          message: {
            role: 'assistant',
            content: 'Hi.',
            thinking: 'short',
            tool_calls: [{ id: 'call_1', function: { name: 'read_file', arguments: { path: 'a' } } }],
          },
        }),
      ),
    );
    expect(reply.finishReason).toBe('stop');
    expect(reply.reply()).toEqual({
      text: 'Hi.',
      toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a"}' }],
      usage: { input_tokens: 169, output_tokens: 15 },
      replay: [{ thinking: 'short' }],
    });
  });

  it('an object without done: true, or not an object, is not a finished reply; an error body is an error', () => {
    expect(decode(body(delta({ role: 'assistant', content: 'Hi.' }))).finishReason).toBeNull();
    expect(decode(body('text')).finishReason).toBeNull();
    expect(decode(body({ error: "model 'nope' not found" })).error).toEqual({
      code: null,
      message: "model 'nope' not found",
    });
  });
});

describe('ollama decoder: lines of no known shape', () => {
  const line = (content: string, done = false): JsonValue => ({
    model: 'm',
    message: { role: 'assistant', content },
    done,
  });

  it('a line without a message, a done flag or an error is malformed at its position', () => {
    for (const odd of [[1, 2, 3], 'text', null, { foo: 'bar' }, { message: 'x' }] as JsonValue[]) {
      const reply = decode(lines([line('a'), odd, line('b', true)]));
      expect(reply.malformedAt, JSON.stringify(odd)).toBe(2);
    }
  });
});
