import type { JsonValue, ReplyDecoder, TurnEvent } from '@cw/core/plugin';
import type { CacheReport } from '@cw/plugin-kit';
import {
  UsageTotals,
  WireEventDecoder,
  arrayAt,
  hasType,
  isJsonObject,
  numberAt,
  objectAt,
  providerError,
  stringAt,
  type JsonObject,
} from '@cw/plugin-kit';

// What a message that stopped without naming a reason finished with.
const DEFAULT_STOP_REASON = 'end_turn';

/** A fresh decoder for one Anthropic Messages reply: SSE events ending in message_stop, or one JSON message. */
export function createAnthropicDecoder(): ReplyDecoder {
  return new AnthropicDecoder();
}

// message_stop's finish closes the reply; a [DONE] sentinel is not Anthropic's and adds nothing.
class AnthropicDecoder extends WireEventDecoder {
  // Messages counts cache reads and writes beside input_tokens.
  readonly #usage = new UsageTotals({ cacheBesideInput: true });
  #stopReason: string | null = null;
  /** Thinking and redacted_thinking blocks still open, by block index: sent back whole once they close. */
  readonly #thinking = new Map<number, JsonObject>();

  protected override onEvent(data: JsonValue): TurnEvent[] {
    // Every event names its type; one whose type is new to cw is skipped, as Anthropic's versioning asks.
    if (!isJsonObject(data) || typeof data['type'] !== 'string') return this.malformed();
    const index = numberAt(data, 'index');
    switch (stringAt(data, 'type')) {
      case 'message_start': {
        // The message may start with whole content blocks (a tool_use from programmatic tool calling);
        // then its output count covers them. Without blocks the output count is a placeholder, and only
        // the input count is final. message_delta's cumulative counts replace both later.
        const message = objectAt(data, 'message');
        const blocks = arrayAt(message, 'content');
        const usage = objectAt(message, 'usage');
        return [
          ...this.#wholeBlocks(blocks),
          ...this.#usage.report(
            usage['input_tokens'],
            blocks.length === 0 ? undefined : usage['output_tokens'],
            cacheOf(usage),
          ),
        ];
      }
      case 'content_block_start': {
        const block = objectAt(data, 'content_block');
        if (index === null) return [];
        const replay = replayBlock(block);
        if (replay !== null) this.#thinking.set(index, replay);
        if (block['type'] !== 'tool_use') return [];
        return this.calls.start(index, stringAt(block, 'id'), stringAt(block, 'name'), argumentsOf(block));
      }
      case 'content_block_delta':
        return index === null ? [] : this.#blockDelta(index, objectAt(data, 'delta'));
      case 'content_block_stop':
        return index === null ? [] : [...this.#closeThinking(index), ...this.calls.end(index)];
      case 'message_delta': {
        this.#stopReason = stringAt(objectAt(data, 'delta'), 'stop_reason') || this.#stopReason;
        // message_delta usage is cumulative: every count it carries replaces the one before.
        const usage = objectAt(data, 'usage');
        return this.#usage.report(usage['input_tokens'], usage['output_tokens'], cacheOf(usage));
      }
      case 'message_stop':
        return [...this.calls.endAll(), { type: 'finish', reason: this.#stopReason ?? DEFAULT_STOP_REASON }];
      case 'error':
        return [providerError(objectAt(data, 'error'))];
      default:
        return [];
    }
  }

  #blockDelta(index: number, delta: JsonObject): TurnEvent[] {
    switch (delta['type']) {
      case 'text_delta': {
        const text = stringAt(delta, 'text');
        return text === '' ? [] : [{ type: 'text-delta', text }];
      }
      case 'thinking_delta': {
        const text = stringAt(delta, 'thinking');
        const block = this.#thinking.get(index);
        if (block?.['type'] === 'thinking') block['thinking'] = stringAt(block, 'thinking') + text;
        return text === '' ? [] : [{ type: 'reasoning-delta', text }];
      }
      case 'signature_delta': {
        const block = this.#thinking.get(index);
        if (block?.['type'] === 'thinking')
          block['signature'] = stringAt(block, 'signature') + stringAt(delta, 'signature');
        return [];
      }
      case 'input_json_delta':
        return this.calls.delta(index, stringAt(delta, 'partial_json'));
      default:
        return [];
    }
  }

  /** The events of content blocks that arrive whole (a blocking reply, or message_start), by block index. */
  #wholeBlocks(blocks: readonly JsonValue[]): TurnEvent[] {
    return blocks.flatMap((block, index) => [
      ...blockEvents(block),
      ...(isJsonObject(block) && block['type'] === 'tool_use'
        ? [
            ...this.calls.start(index, stringAt(block, 'id'), stringAt(block, 'name'), argumentsOf(block)),
            ...this.calls.end(index),
          ]
        : []),
    ]);
  }

  /** A thinking block that closes goes out whole, as the API wants it back on the next request. */
  #closeThinking(index: number): TurnEvent[] {
    const block = this.#thinking.get(index);
    if (block === undefined) return [];
    this.#thinking.delete(index);
    return [{ type: 'replay-item', item: block }];
  }

  protected override onBody(body: JsonValue): TurnEvent[] {
    const events: TurnEvent[] = stringAt(body, 'type') === 'error' ? [providerError(objectAt(body, 'error'))] : [];
    const content = isJsonObject(body) ? body['content'] : undefined;
    events.push(...this.#wholeBlocks(Array.isArray(content) ? content : []));
    const usage = objectAt(body, 'usage');
    events.push(...this.#usage.report(usage['input_tokens'], usage['output_tokens'], cacheOf(usage)));
    // Only a body with the message's shape is a finished reply; anything else fails closed.
    if (stringAt(body, 'type') === 'message' && Array.isArray(content)) {
      events.push({ type: 'finish', reason: stringAt(body, 'stop_reason') || DEFAULT_STOP_REASON });
    }
    return events;
  }
}

/** The text, reasoning and replay state one whole content block of a blocking reply carries. */
function blockEvents(block: JsonValue): TurnEvent[] {
  const text = hasType(block, ['text']) ? stringAt(block, 'text') : '';
  const thinking = hasType(block, ['thinking']) ? stringAt(block, 'thinking') : '';
  const replay = isJsonObject(block) ? replayBlock(block) : null;
  const events: TurnEvent[] = [];
  if (thinking !== '') events.push({ type: 'reasoning-delta', text: thinking });
  if (replay !== null) events.push({ type: 'replay-item', item: replay });
  if (text !== '') events.push({ type: 'text-delta', text });
  return events;
}

/**
 * A thinking or redacted_thinking block in the form the API takes back: with tool use, the blocks of
 * the turn that called the tools must come back unchanged, signature and encrypted data included.
 * Streamed, a thinking block starts empty and its deltas fill it; null for any other block.
 */
function replayBlock(block: JsonObject): JsonObject | null {
  switch (block['type']) {
    case 'thinking':
      return { type: 'thinking', thinking: stringAt(block, 'thinking'), signature: stringAt(block, 'signature') };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: stringAt(block, 'data') };
    default:
      return null;
  }
}

/**
 * A tool_use block's input as an arguments text, for when no input_json_delta streams it: the input
 * may come whole with the block, and a tool without parameters has none, which is `{}`.
 */
function argumentsOf(block: JsonObject): string {
  return JSON.stringify(block['input'] ?? {});
}

/** The cache counts of a Messages usage object. */
function cacheOf(usage: { readonly [key: string]: JsonValue }): CacheReport {
  return { read: usage['cache_read_input_tokens'], write: usage['cache_creation_input_tokens'] };
}
