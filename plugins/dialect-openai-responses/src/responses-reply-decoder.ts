import type { JsonValue, ReplyDecoder, TurnEvent } from '@cw/core/plugin';
import {
  UsageTotals,
  WireEventDecoder,
  arrayAt,
  hasType,
  isJsonObject,
  objectAt,
  providerError,
  stringAt,
} from '@cw/plugin-kit';
import { ResponsesTextParts } from './responses-text-parts.js';

// The statuses of a response that ended with output: cut at the output cap is still a reply.
const FINISHED_STATUSES = ['completed', 'incomplete'];

/** A fresh decoder for one Responses reply: SSE events ending in response.completed, or one JSON response. */
export function createResponsesDecoder(): ReplyDecoder {
  return new ResponsesDecoder();
}

// The terminal event carries the whole response and its finish closes the reply; [DONE] adds nothing.
class ResponsesDecoder extends WireEventDecoder {
  readonly #usage = new UsageTotals();
  readonly #text = new ResponsesTextParts();
  /** The reasoning items already sent as replay items, so the completed response does not repeat them. */
  readonly #replayed = new Set<string>();
  /** The reasoning text streamed so far, which a whole response's reasoning items restate. */
  #streamedReasoning = '';
  /** The function calls already sent, by call id, so the completed response does not repeat them. */
  readonly #callsSeen = new Set<string>();

  protected override onEvent(data: JsonValue): TurnEvent[] {
    // Every event names its type; one whose type is new to cw (a hosted tool's, say) is skipped.
    if (!isJsonObject(data) || typeof data['type'] !== 'string') return this.malformed();
    const type = stringAt(data, 'type');
    switch (type) {
      case 'response.output_item.added':
        this.#text.added(data);
        return [];
      case 'response.output_text.delta':
        return this.#text.delta(data);
      case 'response.output_text.done':
        return this.#text.done(data);
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const text = stringAt(data, 'delta');
        this.#streamedReasoning += text;
        return text === '' ? [] : [{ type: 'reasoning-delta', text }];
      }
      case 'response.output_item.done':
        // The finished item: the one whose encrypted_content is whole (in output_item.added it may not be).
        return [
          ...this.#text.itemDone(data),
          ...this.#replay(objectAt(data, 'item')),
          ...this.#functionCall(objectAt(data, 'item')),
        ];
      case 'response.completed':
      case 'response.incomplete':
        return [
          ...this.#response(objectAt(data, 'response')),
          { type: 'finish', reason: type === 'response.completed' ? 'completed' : 'incomplete' },
        ];
      case 'response.failed':
        return [providerError(objectAt(objectAt(data, 'response'), 'error'))];
      case 'error':
        // The error event is flat: its `type` names the event, so the code is only in `code`.
        return [providerError(data, ['code'])];
      default:
        return [];
    }
  }

  protected override onBody(body: JsonValue): TurnEvent[] {
    const error = isJsonObject(body) ? body['error'] : undefined;
    const events = [...(isJsonObject(error) ? [providerError(error)] : []), ...this.#response(body)];
    // Only a finished response object is a reply; any other body fails closed.
    const status = stringAt(body, 'status');
    const finished = isJsonObject(body) && Array.isArray(body['output']) && FINISHED_STATUSES.includes(status);
    return finished ? [...events, { type: 'finish', reason: status }] : events;
  }

  /**
   * A finished function_call item as one whole tool call (argument deltas are not read). It comes in
   * `response.output_item.done` and again in the completed response, whose output some servers leave
   * empty: each call goes out once, known by its call id (or item id).
   */
  #functionCall(item: JsonValue): TurnEvent[] {
    if (!hasType(item, ['function_call'])) return [];
    const key = stringAt(item, 'call_id') || stringAt(item, 'id') || JSON.stringify(item);
    if (this.#callsSeen.has(key)) return [];
    this.#callsSeen.add(key);
    const index = this.calls.nextIndex;
    return [
      ...this.calls.start(index, stringAt(item, 'call_id'), stringAt(item, 'name')),
      ...this.calls.delta(index, stringAt(item, 'arguments')),
      ...this.calls.end(index),
    ];
  }

  /**
   * What a whole response adds to the streamed events. Its function_call items not already read are
   * the tool calls; its message text is the reply's text, correcting the streamed
   * text when the two disagree; its reasoning items not already streamed are replay items.
   */
  #response(response: JsonValue): TurnEvent[] {
    const output = arrayAt(response, 'output');
    const events: TurnEvent[] = [...this.#reasoningNotStreamed(output), ...this.#text.complete(response)];
    for (const item of output) events.push(...this.#replay(item), ...this.#functionCall(item));
    const usage = objectAt(response, 'usage');
    // input_tokens_details.cached_tokens is part of input_tokens.
    const cached = objectAt(usage, 'input_tokens_details')['cached_tokens'];
    events.push(...this.#usage.report(usage['input_tokens'], usage['output_tokens'], { read: cached }));
    return events;
  }

  /**
   * The reasoning text of a whole response's reasoning items (summary and reasoning text parts) that
   * no delta carried: all of it for a blocking reply, so it reads as the streamed one does.
   */
  #reasoningNotStreamed(output: readonly JsonValue[]): TurnEvent[] {
    const whole = output
      .filter((item) => hasType(item, ['reasoning']))
      .map((item) =>
        [...partsText(item, 'summary', 'summary_text'), ...partsText(item, 'content', 'reasoning_text')].join(''),
      )
      .join('');
    if (whole.length <= this.#streamedReasoning.length || !whole.startsWith(this.#streamedReasoning)) return [];
    const text = whole.slice(this.#streamedReasoning.length);
    this.#streamedReasoning = whole;
    return [{ type: 'reasoning-delta', text }];
  }

  /**
   * A reasoning output item, whole as returned (id, summary, encrypted_content when asked for): with
   * `store: false` the next request of a tool loop must carry it back. Each item goes out once, known
   * by its id (or, without one, by its text).
   */
  #replay(item: JsonValue): TurnEvent[] {
    if (!isJsonObject(item) || !hasType(item, ['reasoning'])) return [];
    const key = stringAt(item, 'id') || JSON.stringify(item);
    if (this.#replayed.has(key)) return [];
    this.#replayed.add(key);
    return [{ type: 'replay-item', item }];
  }
}

/** The text of the parts of `type` in an item's `key` array. */
function partsText(item: JsonValue, key: string, type: string): string[] {
  return arrayAt(item, key)
    .filter((part) => hasType(part, [type]))
    .map((part) => stringAt(part, 'text'));
}
