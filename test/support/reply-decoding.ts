// Shared helpers for the dialect reply-decoder tests: wire events made by hand, run through a decoder.
import { assembleReply, type ReplyAssembler } from '../../core/src/reply/assemble-reply.js';
import type { JsonValue, ReplyDecoder, TurnEvent, WireEvent } from '@cw/core/plugin';

/** Server-sent events without event names, one a data item. */
export function sse(data: readonly JsonValue[]): WireEvent[] {
  return data.map((item) => ({ kind: 'event', name: null, data: item }));
}

/** One whole JSON reply, as the blocking path receives it. */
export function body(value: JsonValue): WireEvent[] {
  return [{ kind: 'body', body: value }];
}

/** Runs wire events through fresh decoders from `createDecoder`. */
export function decoding(createDecoder: () => ReplyDecoder): {
  /** Pushes the events through a fresh decoder, ends it, and returns every turn event in order. */
  turnEvents: (events: readonly WireEvent[]) => TurnEvent[];
  /** The same turn events, folded into the reply they make. */
  decode: (events: readonly WireEvent[]) => ReplyAssembler;
} {
  const turnEvents = (events: readonly WireEvent[]): TurnEvent[] => {
    const decoder = createDecoder();
    return [...events.flatMap((event) => decoder.push(event)), ...decoder.end()];
  };
  return { turnEvents, decode: (events) => assembleReply(turnEvents(events)) };
}
