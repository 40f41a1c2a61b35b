// For every built-in dialect, one reply read whole (the blocking entry point) and the same reply
// streamed decode to the same text, tool calls, reasoning and usage, and to the reply they were made
// from. The replies are generated: text and reasoning cut into random pieces, tool calls with
// arguments cut anywhere, and each wire's optional forms (Chat content as typed parts, Anthropic
// blocks that arrive whole in message_start, a Responses completion with an empty output).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue, ReplyDecoder, WireEvent } from '@cw/core/plugin';
import { createAnthropicDecoder } from '../plugins/dialect-anthropic-messages/src/anthropic-reply-decoder.js';
import { createChatDecoder } from '../plugins/dialect-chat-completions/src/chat-reply-decoder.js';
import { createGeminiDecoder } from '../plugins/dialect-gemini-generate-content/src/gemini-reply-decoder.js';
import { createOllamaDecoder } from '../plugins/dialect-ollama-chat/src/ollama-reply-decoder.js';
import { createResponsesDecoder } from '../plugins/dialect-openai-responses/src/responses-reply-decoder.js';
import { body, decoding, replyFacts, sse } from './support/reply-decoding.js';

interface Call {
  readonly id: string;
  readonly name: string;
  readonly args: { [key: string]: JsonValue };
}

/** A reply as a model gives it, before any wire: what both paths must decode to. */
interface Reply {
  readonly reasoning: readonly string[];
  readonly text: readonly string[];
  readonly calls: readonly Call[];
  readonly usage: { readonly input: number; readonly output: number };
  /** Which of a wire's optional forms to use; each renderer reads the bits it has a use for. */
  readonly form: readonly boolean[];
}

const piece = fc.string({ unit: 'grapheme', maxLength: 6 });
const reply: fc.Arbitrary<Reply> = fc.record({
  reasoning: fc.array(piece, { maxLength: 4 }),
  text: fc.array(piece, { maxLength: 4 }),
  calls: fc.uniqueArray(
    fc.record({
      id: fc.stringMatching(/^call_[a-z0-9]{4}$/),
      name: fc.constantFrom('read_file', 'list_dir', 'shell'),
      args: fc.dictionary(fc.constantFrom('path', 'limit', 'recursive'), fc.oneof(piece, fc.nat(99), fc.boolean())),
    }),
    { maxLength: 3, selector: (call) => call.id },
  ),
  usage: fc.record({ input: fc.nat(5000), output: fc.nat(5000) }),
  form: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
});

const joined = (pieces: readonly string[]): string => pieces.join('');
const argumentsOf = (call: Call): string => JSON.stringify(call.args);
/** An argument text cut in two, where the length says, as a stream may cut it. */
const halves = (text: string): [string, string] => [text.slice(0, text.length >> 1), text.slice(text.length >> 1)];

/** One dialect: its decoder and the reply as a stream and as a whole body. */
interface Wire {
  readonly createDecoder: () => ReplyDecoder;
  readonly streamed: (reply: Reply) => WireEvent[];
  readonly whole: (reply: Reply) => JsonValue;
}

const chatText = (text: string, parts: boolean): JsonValue => (parts ? [{ type: 'text', text }] : text);

const WIRES: Record<string, Wire> = {
  'chat-completions': {
    createDecoder: createChatDecoder,
    streamed: (reply) => {
      const [asParts, thinkingParts] = reply.form;
      const chunk = (delta: JsonValue, extra: { [key: string]: JsonValue } = {}): JsonValue => ({
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, finish_reason: null }],
        ...extra,
      });
      return [
        ...sse([
          chunk({ role: 'assistant', content: '' }),
          ...reply.reasoning.map((text) =>
            chunk(
              thinkingParts
                ? { content: [{ type: 'thinking', thinking: [{ type: 'text', text }] }] }
                : { reasoning_content: text },
            ),
          ),
          ...reply.text.map((text) => chunk({ content: chatText(text, asParts === true) })),
          ...reply.calls.flatMap((call, index) => {
            const [first, second] = halves(argumentsOf(call));
            return [
              chunk({
                tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: first } }],
              }),
              chunk({ tool_calls: [{ index, function: { arguments: second } }] }),
            ];
          }),
          { object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
          {
            object: 'chat.completion.chunk',
            choices: [],
            usage: { prompt_tokens: reply.usage.input, completion_tokens: reply.usage.output },
          },
        ]),
        { kind: 'done' },
      ];
    },
    whole: (reply) => {
      const [, , asParts, thinkingParts] = reply.form;
      const reasoning = joined(reply.reasoning);
      const thinking =
        thinkingParts && reasoning !== '' ? [{ type: 'thinking', thinking: [{ type: 'text', text: reasoning }] }] : [];
      const content: JsonValue =
        asParts || thinking.length > 0 ? [...thinking, { type: 'text', text: joined(reply.text) }] : joined(reply.text);
      return {
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content,
              ...(thinkingParts ? {} : { reasoning_content: reasoning }),
              tool_calls: reply.calls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: argumentsOf(call) },
              })),
            },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: reply.usage.input, completion_tokens: reply.usage.output },
      };
    },
  },
  'anthropic-messages': {
    createDecoder: createAnthropicDecoder,
    streamed: (reply) => {
      const [callsFirst] = reply.form;
      const blocks = anthropicBlocks(reply, callsFirst === true);
      // Tool calls that come first arrive whole in message_start, as programmatic tool calling sends them.
      const whole = callsFirst ? blocks.filter((block) => block['type'] === 'tool_use') : [];
      const usage = { input_tokens: reply.usage.input, output_tokens: whole.length > 0 ? reply.usage.output : 1 };
      const events: JsonValue[] = [{ type: 'message_start', message: { type: 'message', content: whole, usage } }];
      blocks.forEach((block, index) => {
        if (index < whole.length) return;
        if (block['type'] === 'thinking') {
          events.push({
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '', signature: '' },
          });
          for (const text of reply.reasoning)
            events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: text } });
          events.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: 'c2ln' } });
        } else if (block['type'] === 'text') {
          events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
          for (const text of reply.text)
            events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
        } else {
          events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
          for (const part of halves(JSON.stringify(block['input'])))
            events.push({
              type: 'content_block_delta',
              index,
              delta: { type: 'input_json_delta', partial_json: part },
            });
        }
        events.push({ type: 'content_block_stop', index });
      });
      events.push(
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: reply.usage.output } },
        { type: 'message_stop' },
      );
      return sse(events);
    },
    whole: (reply) => ({
      type: 'message',
      role: 'assistant',
      content: anthropicBlocks(reply, reply.form[1] === true),
      stop_reason: 'end_turn',
      usage: { input_tokens: reply.usage.input, output_tokens: reply.usage.output },
    }),
  },
  'openai-responses': {
    createDecoder: createResponsesDecoder,
    streamed: (reply) => {
      const [emptyCompletion, withDone] = reply.form;
      const output = responsesOutput(reply);
      const events: JsonValue[] = [{ type: 'response.created', response: { status: 'in_progress', output: [] } }];
      output.forEach((item, outputIndex) => {
        events.push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, content: [] } });
        if (item['type'] === 'reasoning') {
          for (const delta of reply.reasoning)
            events.push({
              type: 'response.reasoning_summary_text.delta',
              item_id: 'rs_1',
              output_index: outputIndex,
              summary_index: 0,
              delta,
            });
        } else if (item['type'] === 'message') {
          for (const delta of reply.text)
            events.push({
              type: 'response.output_text.delta',
              item_id: 'msg_1',
              output_index: outputIndex,
              content_index: 0,
              delta,
            });
          if (withDone)
            events.push({
              type: 'response.output_text.done',
              item_id: 'msg_1',
              output_index: outputIndex,
              content_index: 0,
              text: joined(reply.text),
            });
        } else {
          for (const delta of halves(String(item['arguments'])))
            events.push({
              type: 'response.function_call_arguments.delta',
              item_id: item['id'] as string,
              output_index: outputIndex,
              delta,
            });
        }
        events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
      });
      const usage = { input_tokens: reply.usage.input, output_tokens: reply.usage.output };
      events.push({
        type: 'response.completed',
        response: { status: 'completed', output: emptyCompletion ? [] : output, usage },
      });
      return sse(events);
    },
    whole: (reply) => ({
      status: 'completed',
      output: responsesOutput(reply),
      usage: { input_tokens: reply.usage.input, output_tokens: reply.usage.output },
    }),
  },
  'gemini-generate-content': {
    createDecoder: createGeminiDecoder,
    streamed: (reply) => {
      const usageMetadata = { promptTokenCount: reply.usage.input, candidatesTokenCount: reply.usage.output };
      const response = (parts: JsonValue[], finishReason?: string): JsonValue => ({
        candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
        usageMetadata,
      });
      return sse([
        ...reply.reasoning.map((text) => response([{ text, thought: true }])),
        ...reply.text.map((text) => response([{ text }])),
        ...reply.calls.map((call) => response([geminiCall(call)])),
        response([], 'STOP'),
      ]);
    },
    whole: (reply) => ({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              ...(reply.reasoning.length > 0 ? [{ text: joined(reply.reasoning), thought: true }] : []),
              ...(reply.text.length > 0 ? [{ text: joined(reply.text) }] : []),
              ...reply.calls.map(geminiCall),
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: reply.usage.input, candidatesTokenCount: reply.usage.output },
    }),
  },
  'ollama-chat': {
    createDecoder: createOllamaDecoder,
    streamed: (reply) =>
      sse([
        ...reply.reasoning.map((thinking) => ({ message: { role: 'assistant', content: '', thinking }, done: false })),
        ...reply.text.map((content) => ({ message: { role: 'assistant', content }, done: false })),
        ...(reply.calls.length > 0
          ? [{ message: { role: 'assistant', content: '', tool_calls: reply.calls.map(ollamaCall) }, done: false }]
          : []),
        {
          message: { role: 'assistant', content: '' },
          done: true,
          done_reason: 'stop',
          prompt_eval_count: reply.usage.input,
          eval_count: reply.usage.output,
        },
      ]),
    whole: (reply) => ({
      message: {
        role: 'assistant',
        content: joined(reply.text),
        thinking: joined(reply.reasoning),
        tool_calls: reply.calls.map(ollamaCall),
      },
      done: true,
      done_reason: 'stop',
      prompt_eval_count: reply.usage.input,
      eval_count: reply.usage.output,
    }),
  },
};

/** Anthropic's content blocks for a reply: thinking, text, tool_use, or the tool_use blocks first. */
function anthropicBlocks(reply: Reply, callsFirst: boolean): { [key: string]: JsonValue }[] {
  const calls = reply.calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.args }));
  const thinking =
    reply.reasoning.length > 0 ? [{ type: 'thinking', thinking: joined(reply.reasoning), signature: 'c2ln' }] : [];
  const text = [{ type: 'text', text: joined(reply.text) }];
  return callsFirst ? [...calls, ...thinking, ...text] : [...thinking, ...text, ...calls];
}

/** A Responses output array: a reasoning item with its summary, a message, function calls. */
function responsesOutput(reply: Reply): { [key: string]: JsonValue }[] {
  return [
    ...(reply.reasoning.length > 0
      ? [{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: joined(reply.reasoning) }] }]
      : []),
    {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: joined(reply.text), annotations: [] }],
    },
    ...reply.calls.map((call) => ({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: argumentsOf(call),
      status: 'completed',
    })),
  ];
}

const geminiCall = (call: Call): JsonValue => ({ functionCall: { id: call.id, name: call.name, args: call.args } });
const ollamaCall = (call: Call): JsonValue => ({ id: call.id, function: { name: call.name, arguments: call.args } });

describe('blocking and streaming decode the same reply alike', () => {
  for (const [dialect, wire] of Object.entries(WIRES)) {
    it(`${dialect}: the same text, tool calls, reasoning and usage, both equal to the reply sent`, () => {
      const { decode } = decoding(wire.createDecoder);
      fc.assert(
        fc.property(reply, (generated) => {
          const streamed = replyFacts(decode(wire.streamed(generated)));
          const blocking = replyFacts(decode(body(wire.whole(generated))));
          expect(streamed).toEqual(blocking);
          expect(blocking).toEqual({
            text: joined(generated.text),
            reasoning: joined(generated.reasoning),
            toolCalls: generated.calls.map((call) => ({ id: call.id, name: call.name, arguments: argumentsOf(call) })),
            usage: { input_tokens: generated.usage.input, output_tokens: generated.usage.output },
            finished: true,
          });
        }),
        { numRuns: 200 },
      );
    });
  }
});
