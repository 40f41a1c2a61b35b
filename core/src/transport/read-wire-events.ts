import type { JsonValue } from '../canonical/canonical-json.js';
import type { WireEvent } from '../reply/turn-events.js';
import { ProviderError } from './provider-error.js';

/** A reply as the transport hands it over: its status, content type and bytes as they arrive. */
export interface ReplyStream {
  readonly status: number;
  readonly contentType: string;
  readonly body: AsyncIterable<Uint8Array>;
}

/**
 * Reads a reply's wire events in arrival order: server-sent events, newline-delimited JSON, or one
 * JSON body. Reading is linear in the bytes received: no buffer is scanned twice, so one 20 MB event
 * costs what the same bytes cost in small events.
 */
export async function* readWireEvents(response: ReplyStream): AsyncGenerator<WireEvent> {
  const contentType = response.contentType.toLowerCase();
  if (contentType.includes('text/event-stream')) yield* readServerSentEvents(response);
  else if (contentType.includes('ndjson')) yield* readJsonLines(response);
  else yield { kind: 'body', body: await readJsonBody(response) };
}

async function readJsonBody(response: ReplyStream): Promise<JsonValue> {
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  for await (const chunk of response.body) pieces.push(decoder.decode(chunk, { stream: true }));
  pieces.push(decoder.decode());
  const text = pieces.join('');
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new ProviderError('the provider answered with a body that is not JSON; nothing was saved', {
      status: response.status,
      kind: 'malformed',
    });
  }
}

/** Server-sent events as the HTML standard frames them: `event` and `data` fields, a blank line ends an event. */
async function* readServerSentEvents(response: ReplyStream): AsyncGenerator<WireEvent> {
  let data: string[] = [];
  let name: string | null = null;
  const dispatch = (): WireEvent | null => {
    const text = data.join('\n');
    const event = name;
    data = [];
    name = null;
    if (text === '') return null;
    if (text === '[DONE]') return { kind: 'done' };
    return { kind: 'event', name: event, data: parseEventData(text, response.status) };
  };
  for await (const line of readLines(response)) {
    if (line === '') {
      const event = dispatch();
      if (event) yield event;
      continue;
    }
    // A comment: keep-alive traffic, never part of the reply.
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'data') data.push(value);
    else if (field === 'event') name = value;
  }
  const last = dispatch();
  if (last) yield last;
}

/** One JSON value per line; blank lines are skipped. */
async function* readJsonLines(response: ReplyStream): AsyncGenerator<WireEvent> {
  for await (const line of readLines(response)) {
    if (line.trim() === '') continue;
    yield { kind: 'event', name: null, data: parseEventData(line, response.status) };
  }
}

function parseEventData(text: string, status: number): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new ProviderError('the provider sent a stream event that is not JSON; nothing was saved', {
      status,
      kind: 'malformed',
    });
  }
}

/** Splits the body into lines (LF or CRLF) as chunks arrive; each chunk is scanned once. */
async function* readLines(response: ReplyStream): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pieces: string[] = [];
  for await (const chunk of response.body) {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      pieces.push(text.slice(start, newline));
      const line = pieces.length === 1 ? (pieces[0] as string) : pieces.join('');
      pieces = [];
      yield line.endsWith('\r') ? line.slice(0, -1) : line;
      start = newline + 1;
    }
    if (start < text.length) pieces.push(text.slice(start));
  }
  const rest = pieces.join('') + decoder.decode();
  if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}
