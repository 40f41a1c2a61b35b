// Shared helpers for the dialect reply-decoder tests: wire events made by hand or read from a
// recording, run through a decoder.
import { readFile } from 'node:fs/promises';
import type { JsonValue, ReplyDecoder, TurnEvent, WireEvent } from '@cw/core/plugin';
import { assembleReply, type ReplyAssembler } from '../../core/src/reply/assemble-reply.js';
import { readWireEvents } from '../../core/src/transport/read-wire-events.js';

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

/**
 * The wire events of a recorded reply, read by cw's own transport reader: a `.sse` file as a
 * server-sent event stream, a `.json` file as one blocking body.
 */
export async function recorded(file: URL): Promise<WireEvent[]> {
  const bytes = await readFile(file);
  const contentType = file.pathname.endsWith('.sse') ? 'text/event-stream' : 'application/json';
  const events: WireEvent[] = [];
  for await (const event of readWireEvents({ status: 200, contentType, body: chunksOf(bytes) })) events.push(event);
  return events;
}

// Small chunks that split lines and multi-byte characters, as a network does.
async function* chunksOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += 7) yield bytes.subarray(start, start + 7);
}

/** What the blocking and streaming paths of a dialect must agree on for the same reply. */
export function replyFacts(reply: ReplyAssembler): {
  text: string;
  reasoning: string;
  toolCalls: unknown;
  usage: unknown;
  finished: boolean;
} {
  const { text, toolCalls, usage } = reply.reply();
  return { text, reasoning: reply.reasoningText, toolCalls, usage, finished: reply.finishReason !== null };
}
