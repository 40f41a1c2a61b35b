import type { TurnEvent } from '@cw/core/plugin';

interface TrackedCall {
  id: string;
  name: string;
  argumentsSent: boolean;
  readonly argumentsIfNoneStreamed: string | null;
  open: boolean;
}

/**
 * Turns a dialect's tool-call fragments into tool-call-start, -delta and -end events, keyed by the
 * index the wire gives each call. Each call starts once and ends once, whatever order fragments come in.
 */
export class ToolCallTracker {
  readonly #calls = new Map<number, TrackedCall>();

  /** The index after the highest seen, for wires that may leave a fragment's index out. */
  get nextIndex(): number {
    return this.#calls.size === 0 ? 0 : Math.max(...this.#calls.keys()) + 1;
  }

  /**
   * Opens the call at `index`. A repeated start only fills an id or name still missing, as some
   * wires send them in a later fragment; `argumentsIfNoneStreamed` is sent at the end when no
   * argument text was (a wire that sends the whole input up front, or a tool without parameters).
   */
  start(index: number, id: string, name: string, argumentsIfNoneStreamed: string | null = null): TurnEvent[] {
    const call = this.#calls.get(index);
    if (call === undefined) {
      this.#calls.set(index, { id, name, argumentsSent: false, argumentsIfNoneStreamed, open: true });
      return [{ type: 'tool-call-start', index, id, name }];
    }
    const fillsId = call.id === '' && id !== '';
    const fillsName = call.name === '' && name !== '';
    if (!call.open || (!fillsId && !fillsName)) return [];
    call.id ||= id;
    call.name ||= name;
    return [{ type: 'tool-call-start', index, id: call.id, name: call.name }];
  }

  /** Argument text for the open call at `index`; text for a call never started or already ended is dropped. */
  delta(index: number, argumentsDelta: string): TurnEvent[] {
    const call = this.#calls.get(index);
    if (call === undefined || !call.open || argumentsDelta === '') return [];
    call.argumentsSent = true;
    return [{ type: 'tool-call-delta', index, argumentsDelta }];
  }

  /** Closes the call at `index`, first sending its fallback arguments when none were streamed. */
  end(index: number): TurnEvent[] {
    const call = this.#calls.get(index);
    if (call === undefined || !call.open) return [];
    call.open = false;
    const fallback: TurnEvent[] =
      !call.argumentsSent && call.argumentsIfNoneStreamed !== null
        ? [{ type: 'tool-call-delta', index, argumentsDelta: call.argumentsIfNoneStreamed }]
        : [];
    return [...fallback, { type: 'tool-call-end', index }];
  }

  /** Closes every call still open, in index order. */
  endAll(): TurnEvent[] {
    return [...this.#calls.keys()].sort((a, b) => a - b).flatMap((index) => this.end(index));
  }
}
