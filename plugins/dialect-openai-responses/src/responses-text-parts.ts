import type { JsonValue, TurnEvent } from '@cw/core/plugin';
import { arrayAt, hasType, isJsonObject, numberAt, objectAt, stringAt } from '@cw/plugin-kit';

interface TextPart {
  streamed: string;
  stated: string | null;
}

/**
 * The reply text of a Responses stream, part by part. Deltas build each output_text part and are
 * shown as they come; `response.output_text.done`, `response.output_item.done` and the completed
 * response state a part's whole text, and that statement is the reply when the two disagree (the
 * deltas of a `phase` message may carry a fraction of it). The shown text is then corrected: the
 * missing end as a delta, or, when it is no prefix, the whole text as a `text-replace`.
 */
export class ResponsesTextParts {
  /** Parts in the order they first appeared, keyed by item id (or output index) and content index. */
  readonly #parts = new Map<string, TextPart>();
  /** Item ids by output index, for events that name only the index. */
  readonly #itemAt = new Map<number, string>();
  #current: string | null = null;
  #shown = '';

  /** An output item opened: remembers its id for events that give only its output index. */
  added(event: JsonValue): void {
    this.#key(stringAt(objectAt(event, 'item'), 'id'), numberAt(event, 'output_index'), 0);
  }

  /** A `response.output_text.delta`: shown at once. */
  delta(event: JsonValue): TurnEvent[] {
    const text = stringAt(event, 'delta');
    const part = this.#part(this.#eventKey(event));
    part.streamed += text;
    this.#shown += text;
    return text === '' ? [] : [{ type: 'text-delta', text }];
  }

  /** A `response.output_text.done`: the part's whole text. */
  done(event: JsonValue): TurnEvent[] {
    const text = isJsonObject(event) ? event['text'] : undefined;
    if (typeof text !== 'string') return [];
    this.#part(this.#eventKey(event)).stated = text;
    return this.#correct(this.#joined());
  }

  /** A `response.output_item.done`: a finished message item states the text of each of its parts. */
  itemDone(event: JsonValue): TurnEvent[] {
    const item = objectAt(event, 'item');
    if (!hasType(item, ['message'])) return [];
    const outputIndex = numberAt(event, 'output_index');
    arrayAt(item, 'content').forEach((part, contentIndex) => {
      if (!hasType(part, ['output_text'])) return;
      this.#part(this.#key(stringAt(item, 'id'), outputIndex, contentIndex)).stated = stringAt(part, 'text');
    });
    return this.#correct(this.#joined());
  }

  /**
   * The completed response: the text of its message items is the whole reply when it has any; an
   * empty output (some servers send none) leaves the parts' text as it stands.
   */
  complete(response: JsonValue): TurnEvent[] {
    const text = arrayAt(response, 'output')
      .filter((item) => hasType(item, ['message']))
      .map(messageText)
      .join('');
    return this.#correct(text === '' ? this.#joined() : text);
  }

  #joined(): string {
    return [...this.#parts.values()].map((part) => part.stated ?? part.streamed).join('');
  }

  #correct(whole: string): TurnEvent[] {
    const shown = this.#shown;
    this.#shown = whole;
    if (whole === shown) return [];
    if (whole.startsWith(shown)) return [{ type: 'text-delta', text: whole.slice(shown.length) }];
    return [{ type: 'text-replace', text: whole }];
  }

  #eventKey(event: JsonValue): string {
    return this.#key(stringAt(event, 'item_id'), numberAt(event, 'output_index'), numberAt(event, 'content_index'));
  }

  /** The key of a part; an event that names no item and no index belongs to the part being streamed. */
  #key(itemId: string, outputIndex: number | null, contentIndex: number | null): string {
    if (itemId !== '' && outputIndex !== null) this.#itemAt.set(outputIndex, itemId);
    const item = itemId || (outputIndex === null ? '' : (this.#itemAt.get(outputIndex) ?? `#${outputIndex}`));
    if (item === '') return this.#current ?? 'unnamed:0';
    return `${item}:${contentIndex ?? 0}`;
  }

  #part(key: string): TextPart {
    this.#current = key;
    let part = this.#parts.get(key);
    if (part === undefined) {
      part = { streamed: '', stated: null };
      this.#parts.set(key, part);
    }
    return part;
  }
}

function messageText(item: JsonValue): string {
  return arrayAt(item, 'content')
    .filter((part) => hasType(part, ['output_text']))
    .map((part) => stringAt(part, 'text'))
    .join('');
}
