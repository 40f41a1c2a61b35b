import { randomUUID } from 'node:crypto';
import type { JsonValue, ReplyDecoder, TurnEvent } from '@cw/core/plugin';
import {
  arrayAt,
  isJsonObject,
  numberAt,
  objectAt,
  stringAt,
  UsageTotals,
  WireEventDecoder,
  type JsonObject,
} from '@cw/plugin-kit';

// What a reply that ended without naming a reason finished with.
const DEFAULT_DONE_REASON = 'stop';

/**
 * A fresh decoder for one Ollama /api/chat reply: newline-delimited JSON objects, each a message
 * delta, the last with `done: true`; or, unstreamed, one such object with `done: true`. The reply is
 * complete only on `done: true`: a stream that stops before it is incomplete.
 */
export function createOllamaDecoder(): ReplyDecoder {
  return new OllamaDecoder();
}

class OllamaDecoder extends WireEventDecoder {
  readonly #usage = new UsageTotals();
  #calls = 0;
  #thinking = '';

  protected override onEvent(data: JsonValue): TurnEvent[] {
    return isChatLine(data) ? this.#line(data) : this.malformed();
  }

  // Unstreamed, the whole reply is one line's object: finished only if it says `done`.
  protected override onBody(body: JsonValue): TurnEvent[] {
    return this.#line(body);
  }

  #line(line: JsonValue): TurnEvent[] {
    if (!isJsonObject(line)) return [];
    // An error after the stream began arrives as a last line under the 200 already sent.
    if (line['error'] !== undefined) return [errorEvent(line['error'])];
    const message = objectAt(line, 'message');
    const events: TurnEvent[] = [];
    const thinking = stringAt(message, 'thinking');
    if (thinking !== '') {
      this.#thinking += thinking;
      events.push({ type: 'reasoning-delta', text: thinking });
    }
    const content = stringAt(message, 'content');
    if (content !== '') events.push({ type: 'text-delta', text: content });
    // Tool calls come whole and parsed, in a line before the last: each is its own index.
    for (const call of arrayAt(message, 'tool_calls')) events.push(...this.#call(call));
    if (line['done'] !== true) return events;
    // Counts of zero are left out of the line; on the last line a missing count is zero.
    events.push(...this.#usage.report(numberAt(line, 'prompt_eval_count') ?? 0, numberAt(line, 'eval_count') ?? 0));
    // The thinking goes back with the reply within a tool loop, as the model's chat template expects.
    if (this.#thinking !== '') events.push({ type: 'replay-item', item: { thinking: this.#thinking } });
    // done_reason never says tool calls: a reply with calls ends as `stop` too.
    events.push(...this.calls.endAll(), {
      type: 'finish',
      reason: stringAt(line, 'done_reason') || DEFAULT_DONE_REASON,
    });
    return events;
  }

  #call(call: JsonValue): TurnEvent[] {
    const fn: JsonObject = objectAt(call, 'function');
    const index = this.#calls++;
    // Recent servers name each call (`call_…`); an older one sends none, and cw needs one to pair the result.
    const id = stringAt(call, 'id') || `call_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const args = fn['arguments'];
    const text = typeof args === 'string' ? args : JSON.stringify(isJsonObject(args) ? args : {});
    return [...this.calls.start(index, id, stringAt(fn, 'name'), text), ...this.calls.end(index)];
  }
}

/** Ollama's error is a plain string; a structured one is read the usual way. */
function errorEvent(error: JsonValue): TurnEvent {
  if (typeof error === 'string') return { type: 'provider-error', code: null, message: error };
  return { type: 'provider-error', code: stringAt(error, 'type') || null, message: stringAt(error, 'message') };
}

/** Whether a stream line is one of /api/chat's: an object with a message, a done flag or an error. */
function isChatLine(data: JsonValue): boolean {
  if (!isJsonObject(data)) return false;
  return isJsonObject(data['message']) || typeof data['done'] === 'boolean' || data['error'] !== undefined;
}
