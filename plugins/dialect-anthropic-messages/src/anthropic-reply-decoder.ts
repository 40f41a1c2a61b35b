import type { JsonValue, ReplyDecoder, TurnEvent, WireEvent } from '@cw/core';
import {
  ToolCallTracker,
  UsageTotals,
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

class AnthropicDecoder implements ReplyDecoder {
  readonly #calls = new ToolCallTracker();
  readonly #usage = new UsageTotals();
  #stopReason: string | null = null;
  #finished = false;

  push(event: WireEvent): readonly TurnEvent[] {
    // message_stop closes the reply; anything after it is not part of it.
    if (this.#finished) return [];
    switch (event.kind) {
      case 'event':
        return this.#streamEvent(event.data);
      case 'done':
        return [];
      case 'body':
        this.#finished = true;
        return this.#message(event.body);
      default: {
        const unknown: never = event;
        throw new Error(`unknown wire event ${JSON.stringify(unknown)}`);
      }
    }
  }

  end(): readonly TurnEvent[] {
    return this.#calls.endAll();
  }

  #streamEvent(data: JsonValue): TurnEvent[] {
    const index = numberAt(data, 'index');
    switch (stringAt(data, 'type')) {
      case 'message_start':
        // Only the input count is final here; message_delta carries the output count.
        return this.#usage.report(objectAt(objectAt(data, 'message'), 'usage')['input_tokens'], undefined);
      case 'content_block_start': {
        const block = objectAt(data, 'content_block');
        if (index === null || block['type'] !== 'tool_use') return [];
        return this.#calls.start(index, stringAt(block, 'id'), stringAt(block, 'name'), argumentsOf(block));
      }
      case 'content_block_delta':
        return index === null ? [] : this.#blockDelta(index, objectAt(data, 'delta'));
      case 'content_block_stop':
        return index === null ? [] : this.#calls.end(index);
      case 'message_delta': {
        this.#stopReason = stringAt(objectAt(data, 'delta'), 'stop_reason') || this.#stopReason;
        // message_delta usage is cumulative: every count it carries replaces the one before.
        const usage = objectAt(data, 'usage');
        return this.#usage.report(usage['input_tokens'], usage['output_tokens']);
      }
      case 'message_stop':
        this.#finished = true;
        return [...this.#calls.endAll(), { type: 'finish', reason: this.#stopReason ?? DEFAULT_STOP_REASON }];
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
        return text === '' ? [] : [{ type: 'reasoning-delta', text }];
      }
      case 'input_json_delta':
        return this.#calls.delta(index, stringAt(delta, 'partial_json'));
      default:
        return [];
    }
  }

  #message(body: JsonValue): TurnEvent[] {
    const events: TurnEvent[] = stringAt(body, 'type') === 'error' ? [providerError(objectAt(body, 'error'))] : [];
    const content = isJsonObject(body) ? body['content'] : undefined;
    const blocks = Array.isArray(content) ? content : [];
    blocks.forEach((block, index) => {
      events.push(...blockEvents(block));
      if (isJsonObject(block) && block['type'] === 'tool_use') {
        events.push(
          ...this.#calls.start(index, stringAt(block, 'id'), stringAt(block, 'name'), argumentsOf(block)),
          ...this.#calls.end(index),
        );
      }
    });
    const usage = objectAt(body, 'usage');
    events.push(...this.#usage.report(usage['input_tokens'], usage['output_tokens']));
    // Only a body with the message's shape is a finished reply; anything else fails closed.
    if (stringAt(body, 'type') === 'message' && Array.isArray(content)) {
      events.push({ type: 'finish', reason: stringAt(body, 'stop_reason') || DEFAULT_STOP_REASON });
    }
    return events;
  }
}

/** The text or reasoning one whole content block of a blocking reply carries. */
function blockEvents(block: JsonValue): TurnEvent[] {
  const text = hasType(block, ['text']) ? stringAt(block, 'text') : '';
  const thinking = hasType(block, ['thinking']) ? stringAt(block, 'thinking') : '';
  const events: TurnEvent[] = [];
  if (thinking !== '') events.push({ type: 'reasoning-delta', text: thinking });
  if (text !== '') events.push({ type: 'text-delta', text });
  return events;
}

/**
 * A tool_use block's input as an arguments text, for when no input_json_delta streams it: the input
 * may come whole with the block, and a tool without parameters has none, which is `{}`.
 */
function argumentsOf(block: JsonObject): string {
  return JSON.stringify(block['input'] ?? {});
}
