import type { JsonValue } from '../canonical/canonical-json.js';
import type { ToolCall } from '../prompt/conversation.js';
import type { TurnEvent, TurnUsage } from './turn-events.js';

/** The reply to one turn, folded from its turn events. */
export interface AssistantReply {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: TurnUsage | null;
  /** Reasoning state to send back with this reply on later requests, in wire order; opaque to the core. */
  readonly replay: readonly JsonValue[];
}

/** An error the provider reported inside its reply; `message` is raw and is redacted before it is shown. */
export interface InStreamError {
  readonly code: string | null;
  readonly message: string;
}

/**
 * Folds turn events into the reply a session stores. It also remembers what decides whether the reply
 * may count as a success: the dialect's finish event, any error the provider reported in the stream
 * and any wire event of no known shape.
 */
export class ReplyAssembler {
  #text = '';
  #reasoning = '';
  readonly #calls = new Map<number, { id: string; name: string; arguments: string }>();
  #usage: TurnUsage | null = null;
  #finishReason: string | null = null;
  #error: InStreamError | null = null;
  #malformedAt: number | null = null;
  readonly #replay: JsonValue[] = [];

  /** Applies one event; events after the finish still count (some providers report usage last). */
  apply(event: TurnEvent): void {
    switch (event.type) {
      case 'text-delta':
        this.#text += event.text;
        return;
      case 'text-replace':
        this.#text = event.text;
        return;
      case 'reasoning-delta':
        this.#reasoning += event.text;
        return;
      case 'tool-call-start': {
        const call = this.#calls.get(event.index);
        if (call) {
          call.id ||= event.id;
          call.name ||= event.name;
        } else {
          this.#calls.set(event.index, { id: event.id, name: event.name, arguments: '' });
        }
        return;
      }
      case 'tool-call-delta': {
        const call = this.#calls.get(event.index);
        if (call) call.arguments += event.argumentsDelta;
        else this.#calls.set(event.index, { id: '', name: '', arguments: event.argumentsDelta });
        return;
      }
      case 'tool-call-end':
        return;
      case 'replay-item':
        this.#replay.push(event.item);
        return;
      case 'usage':
        this.#usage = event.usage;
        return;
      case 'finish':
        this.#finishReason = event.reason;
        return;
      case 'provider-error':
        this.#error ??= { code: event.code, message: event.message };
        return;
      case 'malformed-event':
        this.#malformedAt ??= event.position;
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unknown turn event ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** The provider's finish label, or null when the dialect's terminal event never came. */
  get finishReason(): string | null {
    return this.#finishReason;
  }

  /** The first error the provider reported inside the reply, or null. */
  get error(): InStreamError | null {
    return this.#error;
  }

  /** The position of the first wire event the dialect could not read, or null when every event had a known shape. */
  get malformedAt(): number | null {
    return this.#malformedAt;
  }

  /** Reasoning text the reply carried (not stored in the session yet). */
  get reasoningText(): string {
    return this.#reasoning;
  }

  /** The reply so far; tool calls in the order their indexes give. */
  reply(): AssistantReply {
    const calls = [...this.#calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => ({ ...call }));
    return { text: this.#text, toolCalls: calls, usage: this.#usage, replay: [...this.#replay] };
  }
}

/** Folds a finished list of turn events, for decoders run outside the transport (tests, replays). */
export function assembleReply(events: Iterable<TurnEvent>): ReplyAssembler {
  const assembler = new ReplyAssembler();
  for (const event of events) assembler.apply(event);
  return assembler;
}
