import type { JsonValue, ReplyDecoder, TurnEvent, WireEvent } from '@cw/core/plugin';
import { ToolCallTracker } from './tool-call-tracker.js';

/**
 * The part every dialect's reply decoder shares: each wire event goes to the dialect's reading of a
 * stream event, of the `[DONE]` sentinel or of a whole JSON body, and the tool calls still open when
 * the wire ends are closed. The reply is over once a whole body was read or a finish event went out;
 * anything pushed after that is not part of it and yields nothing.
 */
export abstract class WireEventDecoder implements ReplyDecoder {
  /** The reply's tool calls; `end` closes the ones still open. */
  protected readonly calls = new ToolCallTracker();
  #over = false;
  #position = 0;

  push(event: WireEvent): readonly TurnEvent[] {
    this.#position += 1;
    if (this.#over) return [];
    const events = this.#read(event);
    this.#over = event.kind === 'body' || events.some((turnEvent) => turnEvent.type === 'finish');
    return events;
  }

  end(): readonly TurnEvent[] {
    return this.calls.endAll();
  }

  /**
   * What a dialect returns for a wire event that has none of its event shapes: the reply is
   * malformed. Only the event's position is reported, never its content (docs/wire-conformance.md).
   */
  protected malformed(): TurnEvent[] {
    return [{ type: 'malformed-event', position: this.#position }];
  }

  /** The turn events one streamed event (a server-sent event or a JSON line) carries. */
  protected abstract onEvent(data: JsonValue): readonly TurnEvent[];

  /** The turn events of a whole JSON reply; nothing pushed after it counts. */
  protected abstract onBody(body: JsonValue): readonly TurnEvent[];

  /** The turn events of the `[DONE]` sentinel: none, unless the dialect ends its streams with it. */
  protected onDone(): readonly TurnEvent[] {
    return [];
  }

  #read(event: WireEvent): readonly TurnEvent[] {
    switch (event.kind) {
      case 'event':
        return this.onEvent(event.data);
      case 'done':
        return this.onDone();
      case 'body':
        return this.onBody(event.body);
      default: {
        const unknown: never = event;
        throw new Error(`unknown wire event ${JSON.stringify(unknown)}`);
      }
    }
  }
}
