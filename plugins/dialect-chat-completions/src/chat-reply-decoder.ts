import type { JsonValue, ReplyDecoder, TurnEvent } from '@cw/core/plugin';
import type { CacheReport } from '@cw/plugin-kit';
import {
  UsageTotals,
  WireEventDecoder,
  arrayAt,
  isJsonObject,
  numberAt,
  objectAt,
  providerError,
  stringAt,
  type JsonObject,
} from '@cw/plugin-kit';
import { contentEvents } from './chat-content-parts.js';

// What a stream that ends with [DONE] but never named a reason finished with.
const DEFAULT_FINISH_REASON = 'stop';

/** A fresh decoder for one Chat Completions reply: SSE chunks ending in [DONE], or one JSON completion. */
export function createChatDecoder(): ReplyDecoder {
  return new ChatDecoder();
}

class ChatDecoder extends WireEventDecoder {
  readonly #usage = new UsageTotals();
  #finishReason: string | null = null;
  /** The reasoning text streamed so far: some APIs want it back on later requests. */
  #reasoning = '';

  protected override onEvent(data: JsonValue): TurnEvent[] {
    if (!isChunk(data)) return this.malformed();
    const choice = arrayAt(data, 'choices')[0];
    const delta = objectAt(choice, 'delta');
    this.#reasoning += stringAt(delta, 'reasoning_content');
    const events: TurnEvent[] = [...errorIn(data), ...textEvents(delta)];
    for (const fragment of arrayAt(delta, 'tool_calls')) {
      // Fragments name their call by `index`; one without it opens the next call.
      const index = numberAt(fragment, 'index') ?? this.calls.nextIndex;
      const callFunction = objectAt(fragment, 'function');
      events.push(
        ...this.calls.start(index, stringAt(fragment, 'id'), stringAt(callFunction, 'name')),
        ...this.calls.delta(index, stringAt(callFunction, 'arguments')),
      );
    }
    this.#finishReason = stringAt(choice, 'finish_reason') || this.#finishReason;
    const usage = objectAt(data, 'usage');
    events.push(...this.#usage.report(usage['prompt_tokens'], usage['completion_tokens'], cacheOf(usage)));
    return events;
  }

  // [DONE] closes the reply: the calls still open end before its finish.
  protected override onDone(): TurnEvent[] {
    return [
      ...this.calls.endAll(),
      ...replayOf(this.#reasoning),
      { type: 'finish', reason: this.#finishReason ?? DEFAULT_FINISH_REASON },
    ];
  }

  protected override onBody(body: JsonValue): TurnEvent[] {
    const choice = arrayAt(body, 'choices')[0];
    const message = isJsonObject(choice) ? choice['message'] : undefined;
    const usage = objectAt(body, 'usage');
    const events: TurnEvent[] = [...errorIn(body)];
    if (isJsonObject(message)) events.push(...textEvents(message), ...this.#completedCalls(message));
    events.push(...this.#usage.report(usage['prompt_tokens'], usage['completion_tokens'], cacheOf(usage)));
    // Only a body with the completion's shape is a finished reply; anything else fails closed.
    if (isJsonObject(message)) {
      events.push(...replayOf(stringAt(message, 'reasoning_content')), {
        type: 'finish',
        reason: stringAt(choice, 'finish_reason') || DEFAULT_FINISH_REASON,
      });
    }
    return events;
  }

  #completedCalls(message: JsonObject): TurnEvent[] {
    return arrayAt(message, 'tool_calls').flatMap((call, index) => {
      const callFunction = objectAt(call, 'function');
      return [
        ...this.calls.start(index, stringAt(call, 'id'), stringAt(callFunction, 'name')),
        ...this.calls.delta(index, stringAt(callFunction, 'arguments')),
        ...this.calls.end(index),
      ];
    });
  }
}

/**
 * Whether a stream event has a chunk's shape: choices (an array of objects, empty in the usage chunk),
 * an error, or only usage. Anything else is no chunk, and a stream that carries one is malformed.
 */
function isChunk(data: JsonValue): boolean {
  if (!isJsonObject(data)) return false;
  const choices = data['choices'];
  if (Array.isArray(choices)) return choices.every(isJsonObject);
  // Some servers send the usage chunk with `choices: null` rather than an empty array.
  return (choices === undefined || choices === null) && (isJsonObject(data['error']) || isJsonObject(data['usage']));
}

/** Reply and reasoning text of a stream delta or a whole message: both use `content` and `reasoning_content`. */
function textEvents(part: JsonObject): TurnEvent[] {
  const reasoning = stringAt(part, 'reasoning_content');
  return [
    ...(reasoning === '' ? [] : [{ type: 'reasoning-delta', text: reasoning } as const]),
    ...contentEvents(part['content']),
  ];
}

/**
 * The whole reasoning text of a reply as one replay item, for the APIs (DeepSeek's thinking mode)
 * that want `reasoning_content` back on the assistant message of a tool-calling turn; none when empty.
 */
function replayOf(reasoning: string): TurnEvent[] {
  return reasoning === '' ? [] : [{ type: 'replay-item', item: { reasoning_content: reasoning } }];
}

function errorIn(data: JsonValue): TurnEvent[] {
  const error = isJsonObject(data) ? data['error'] : undefined;
  return isJsonObject(error) ? [providerError(error)] : [];
}

/**
 * The cache reads of a Chat Completions usage object: `prompt_tokens_details.cached_tokens`, or
 * DeepSeek's `prompt_cache_hit_tokens`; both are part of `prompt_tokens`.
 */
function cacheOf(usage: { readonly [key: string]: JsonValue }): CacheReport {
  const details = objectAt(usage, 'prompt_tokens_details');
  return { read: details['cached_tokens'] ?? usage['prompt_cache_hit_tokens'] };
}
