import type { JsonValue, ReplyDecoder, TurnEvent, WireEvent } from '@cw/core';
import {
  ToolCallTracker,
  UsageTotals,
  arrayAt,
  hasType,
  isJsonObject,
  objectAt,
  providerError,
  stringAt,
} from '@cw/plugin-kit';

// The statuses of a response that ended with output: cut at the output cap is still a reply.
const FINISHED_STATUSES = ['completed', 'incomplete'];

/** A fresh decoder for one Responses reply: SSE events ending in response.completed, or one JSON response. */
export function createResponsesDecoder(): ReplyDecoder {
  return new ResponsesDecoder();
}

class ResponsesDecoder implements ReplyDecoder {
  readonly #calls = new ToolCallTracker();
  readonly #usage = new UsageTotals();
  #streamedText = '';
  #finished = false;

  push(event: WireEvent): readonly TurnEvent[] {
    // The terminal event carries the whole response; anything after it is not part of the reply.
    if (this.#finished) return [];
    switch (event.kind) {
      case 'event':
        return this.#streamEvent(event.data);
      case 'done':
        return [];
      case 'body':
        this.#finished = true;
        return this.#body(event.body);
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
    const type = stringAt(data, 'type');
    switch (type) {
      case 'response.output_text.delta': {
        const text = stringAt(data, 'delta');
        this.#streamedText += text;
        return text === '' ? [] : [{ type: 'text-delta', text }];
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const text = stringAt(data, 'delta');
        return text === '' ? [] : [{ type: 'reasoning-delta', text }];
      }
      case 'response.completed':
      case 'response.incomplete':
        this.#finished = true;
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

  #body(body: JsonValue): TurnEvent[] {
    const error = isJsonObject(body) ? body['error'] : undefined;
    const events = [...(isJsonObject(error) ? [providerError(error)] : []), ...this.#response(body)];
    // Only a finished response object is a reply; any other body fails closed.
    const status = stringAt(body, 'status');
    const finished = isJsonObject(body) && Array.isArray(body['output']) && FINISHED_STATUSES.includes(status);
    return finished ? [...events, { type: 'finish', reason: status }] : events;
  }

  /**
   * What a whole response adds to the streamed events. Its function_call items are the tool calls
   * (argument deltas are not read); its text completes the streamed text, which was already shown
   * and so is kept when the two disagree.
   */
  #response(response: JsonValue): TurnEvent[] {
    const output = arrayAt(response, 'output');
    const text = output
      .filter((item) => hasType(item, ['message']))
      .map(messageText)
      .join('');
    const events: TurnEvent[] =
      text.length > this.#streamedText.length && text.startsWith(this.#streamedText)
        ? [{ type: 'text-delta', text: text.slice(this.#streamedText.length) }]
        : [];
    for (const item of output) {
      if (!hasType(item, ['function_call'])) continue;
      const index = this.#calls.nextIndex;
      events.push(
        ...this.#calls.start(index, stringAt(item, 'call_id'), stringAt(item, 'name')),
        ...this.#calls.delta(index, stringAt(item, 'arguments')),
        ...this.#calls.end(index),
      );
    }
    const usage = objectAt(response, 'usage');
    events.push(...this.#usage.report(usage['input_tokens'], usage['output_tokens']));
    return events;
  }
}

function messageText(item: JsonValue): string {
  return arrayAt(item, 'content')
    .filter((part) => hasType(part, ['output_text']))
    .map((part) => stringAt(part, 'text'))
    .join('');
}
