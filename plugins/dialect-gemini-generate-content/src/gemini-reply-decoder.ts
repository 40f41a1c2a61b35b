import type { JsonValue, ReplyDecoder, TurnEvent } from '@cw/core/plugin';
import {
  arrayAt,
  isJsonObject,
  numberAt,
  objectAt,
  providerError,
  stringAt,
  UsageTotals,
  WireEventDecoder,
} from '@cw/plugin-kit';
import { madeUpCallId } from './gemini-call-ids.js';
import { callSignature, textSignature } from './gemini-signatures.js';

// Google errors name their class in `status` (RESOURCE_EXHAUSTED); the numeric `code` is the HTTP one.
const ERROR_CODE_KEYS = ['status'];

/**
 * A fresh decoder for one Gemini reply: `?alt=sse` events each holding a GenerateContentResponse,
 * or one such response as a whole JSON body. There is no terminal sentinel: the reply is complete
 * when the candidate names its finishReason, and a stream that closes before that is incomplete.
 */
export function createGeminiDecoder(): ReplyDecoder {
  return new GeminiDecoder();
}

class GeminiDecoder extends WireEventDecoder {
  readonly #usage = new UsageTotals();
  /** Function calls so far: the API sends each whole, in one part, so each is its own index. */
  #calls = 0;

  protected override onEvent(data: JsonValue): TurnEvent[] {
    return isResponse(data) ? this.#response(data) : this.malformed();
  }

  // A blocking reply is one response; without a finishReason it has not the shape of a finished one.
  protected override onBody(body: JsonValue): TurnEvent[] {
    return this.#response(body);
  }

  #response(response: JsonValue): TurnEvent[] {
    const error = isJsonObject(response) ? response['error'] : undefined;
    if (error !== undefined) return [providerError(error, ERROR_CODE_KEYS)];
    const candidates = arrayAt(response, 'candidates');
    const blocked = stringAt(objectAt(response, 'promptFeedback'), 'blockReason');
    // A blocked prompt gets no candidates at all: the provider refused the request.
    if (candidates.length === 0 && blocked !== '') {
      return [{ type: 'provider-error', code: blocked, message: `the prompt was blocked (${blocked})` }];
    }
    // One candidate is asked for; another would be a second answer, not more of this one.
    const candidate = candidates.find((item) => (numberAt(item, 'index') ?? 0) === 0) ?? candidates[0];
    const events: TurnEvent[] = arrayAt(objectAt(candidate, 'content'), 'parts').flatMap((part) => this.#part(part));
    events.push(...this.#reportUsage(objectAt(response, 'usageMetadata')));
    const finishReason = stringAt(candidate, 'finishReason');
    if (finishReason !== '') events.push(...this.calls.endAll(), { type: 'finish', reason: finishReason });
    return events;
  }

  #part(part: JsonValue): TurnEvent[] {
    if (!isJsonObject(part)) return [];
    const events: TurnEvent[] = [];
    const signature = stringAt(part, 'thoughtSignature');
    const call = part['functionCall'];
    if (isJsonObject(call)) {
      const index = this.#calls++;
      const id = stringAt(call, 'id') || madeUpCallId();
      // Arguments come whole, as an object; a call without parameters may leave them out.
      const args = JSON.stringify(isJsonObject(call['args']) ? call['args'] : {});
      events.push(...this.calls.start(index, id, stringAt(call, 'name'), args), ...this.calls.end(index));
      if (signature !== '') events.push({ type: 'replay-item', item: callSignature(index, signature) });
      return events;
    }
    const text = stringAt(part, 'text');
    if (text !== '') events.push({ type: part['thought'] === true ? 'reasoning-delta' : 'text-delta', text });
    if (signature !== '') events.push({ type: 'replay-item', item: textSignature(signature) });
    return events;
  }

  /** usageMetadata is cumulative; output counts the answer and the thinking, which are billed alike. */
  #reportUsage(usage: { [key: string]: JsonValue }): TurnEvent[] {
    const candidates = numberAt(usage, 'candidatesTokenCount');
    const thoughts = numberAt(usage, 'thoughtsTokenCount');
    const output = candidates === null && thoughts === null ? undefined : (candidates ?? 0) + (thoughts ?? 0);
    // cachedContentTokenCount is part of promptTokenCount.
    return this.#usage.report(usage['promptTokenCount'], output, { read: usage['cachedContentTokenCount'] });
  }
}

// The fields of a GenerateContentResponse (or of the error object a stream may end with).
const RESPONSE_KEYS = ['candidates', 'promptFeedback', 'usageMetadata', 'modelVersion', 'responseId', 'error'];

/** Whether a stream event is a GenerateContentResponse: an object with at least one of its fields. */
function isResponse(data: JsonValue): boolean {
  if (!isJsonObject(data)) return false;
  if (data['candidates'] !== undefined && !Array.isArray(data['candidates'])) return false;
  return RESPONSE_KEYS.some((key) => data[key] !== undefined);
}
