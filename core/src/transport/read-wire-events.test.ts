import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../canonical/canonical-json.js';
import type { WireEvent } from '../reply/turn-events.js';
import { ProviderError } from './provider-error.js';
import { readWireEvents } from './read-wire-events.js';

const SSE = 'text/event-stream';
const NDJSON = 'application/x-ndjson';
const JSON_TYPE = 'application/json';
const encoder = new TextEncoder();

/** Every wire event of a reply whose body arrives as these chunks. */
async function eventsOf(contentType: string, chunks: readonly (string | Uint8Array)[], status = 200) {
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
  }
  const events: WireEvent[] = [];
  for await (const event of readWireEvents({ status, contentType, body: body() })) events.push(event);
  return events;
}

/** The error reading the reply fails with. */
async function failureOf(contentType: string, chunks: readonly string[], status = 200): Promise<unknown> {
  return eventsOf(contentType, chunks, status).then(
    () => expect.unreachable('the reply was read'),
    (error: unknown) => error,
  );
}

const event = (data: JsonValue, name: string | null = null): WireEvent => ({ kind: 'event', name, data });

describe('readWireEvents: server-sent events', () => {
  it('reads data events, with their event names', async () => {
    const text = 'event: message_start\ndata: {"type":"message_start"}\n\ndata: {"n":1}\n\n';
    expect(await eventsOf(SSE, [text])).toEqual([event({ type: 'message_start' }, 'message_start'), event({ n: 1 })]);
  });

  it('joins multi-line data with newlines', async () => {
    expect(await eventsOf(SSE, ['data: {"a":\ndata: [1,\ndata: 2]}\n\n'])).toEqual([event({ a: [1, 2] })]);
  });

  it('reads CRLF line ends like LF', async () => {
    const text = 'event: e\r\ndata: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n';
    expect(await eventsOf(SSE, [text])).toEqual([event({ a: 1 }, 'e'), event({ b: 2 })]);
  });

  it('skips comments, also between the lines of one event', async () => {
    const text = ': keep-alive\n\ndata: {"a":\n: still here\ndata: 1}\n\n:\n\n';
    expect(await eventsOf(SSE, [text])).toEqual([event({ a: 1 })]);
  });

  it('takes `data:` with or without the space, and ignores other fields', async () => {
    const text = 'id: 7\nretry: 100\ndata:{"a":1}\n\nfoo: bar\ndata: {"b":2}\n\n';
    expect(await eventsOf(SSE, [text])).toEqual([event({ a: 1 }), event({ b: 2 })]);
  });

  it('an event name without data dispatches nothing, and does not carry over to the next event', async () => {
    expect(await eventsOf(SSE, ['event: ping\n\ndata: {}\n\n'])).toEqual([event({})]);
  });

  it('[DONE] is the done event', async () => {
    expect(await eventsOf(SSE, ['data: {"a":1}\n\ndata: [DONE]\n\n'])).toEqual([event({ a: 1 }), { kind: 'done' }]);
  });

  it('dispatches a final event that has no trailing blank line', async () => {
    expect(await eventsOf(SSE, ['data: {"a":1}\n\ndata: {"last":true}'])).toEqual([
      event({ a: 1 }),
      event({ last: true }),
    ]);
    expect(await eventsOf(SSE, ['data: [DONE]\r\n'])).toEqual([{ kind: 'done' }]);
  });

  it('an empty stream has no events', async () => {
    expect(await eventsOf(SSE, [])).toEqual([]);
    expect(await eventsOf(SSE, ['', '\n\n'])).toEqual([]);
  });

  it('matches the content type without regard to case or parameters', async () => {
    expect(await eventsOf('Text/Event-Stream; charset=utf-8', ['data: {}\n\n'])).toEqual([event({})]);
  });

  it('data that is not JSON is a malformed reply, with the status', async () => {
    const error = await failureOf(SSE, ['data: {"a":1}\n\ndata: not json\n\n'], 201);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'malformed', status: 201 });
  });
});

describe('readWireEvents: chunk boundaries', () => {
  // Multi-byte UTF-8 (2, 3 and 4 bytes), CRLF and LF, a comment, a name, multi-line data and [DONE].
  const TEXT =
    'event: delta\r\ndata: {"text":"h\u00e9llo \u20ac"}\r\n\r\n' +
    ': ping\n\n' +
    'data: {"emoji":"\ud83d\ude00",\ndata: "n":1}\n\n' +
    'data: [DONE]\r\n\r\n';
  const BYTES = encoder.encode(TEXT);
  const EXPECTED = [
    event({ text: 'h\u00e9llo \u20ac' }, 'delta'),
    event({ emoji: '\ud83d\ude00', n: 1 }),
    { kind: 'done' },
  ];

  it('the whole body in one chunk', async () => {
    expect(await eventsOf(SSE, [BYTES])).toEqual(EXPECTED);
  });

  it('split in two at every byte position gives the same events', async () => {
    for (let at = 1; at < BYTES.length; at += 1) {
      const events = await eventsOf(SSE, [BYTES.subarray(0, at), BYTES.subarray(at)]);
      expect(events, `split at byte ${at}`).toEqual(EXPECTED);
    }
  });

  it('one byte a chunk gives the same events', async () => {
    const chunks = Array.from(BYTES, (byte) => Uint8Array.of(byte));
    expect(await eventsOf(SSE, chunks)).toEqual(EXPECTED);
  });

  it('the split positions that matter: inside a multi-byte character and between \\r and \\n', async () => {
    const euro = BYTES.indexOf(0xe2);
    const crlf = BYTES.indexOf(0x0d);
    expect(euro).toBeGreaterThan(0);
    expect(BYTES[crlf + 1]).toBe(0x0a);
    for (const at of [euro + 1, euro + 2, crlf + 1]) {
      expect(await eventsOf(SSE, [BYTES.subarray(0, at), BYTES.subarray(at)])).toEqual(EXPECTED);
    }
  });
});

describe('readWireEvents: newline-delimited JSON', () => {
  it('one event a line, blank lines skipped, CRLF and a last line without a newline read', async () => {
    const text = '{"a":1}\n\n  \n{"b":"\u00e9"}\r\n{"c":3}';
    const bytes = encoder.encode(text);
    const expected = [event({ a: 1 }), event({ b: '\u00e9' }), event({ c: 3 })];
    expect(await eventsOf(NDJSON, [text])).toEqual(expected);
    for (let at = 1; at < bytes.length; at += 1) {
      expect(await eventsOf(NDJSON, [bytes.subarray(0, at), bytes.subarray(at)])).toEqual(expected);
    }
  });

  it('a line that is not JSON is a malformed reply', async () => {
    expect(await failureOf(NDJSON, ['{"a":1}\nnope\n'])).toMatchObject({ kind: 'malformed', status: 200 });
  });
});

describe('readWireEvents: a JSON body', () => {
  it('any other content type is one JSON body, whatever the chunks', async () => {
    const bytes = encoder.encode('{"text":"\u20ac\ud83d\ude00","n":[1,2]}');
    const expected = [{ kind: 'body', body: { text: '\u20ac\ud83d\ude00', n: [1, 2] } }];
    expect(await eventsOf(JSON_TYPE, [bytes])).toEqual(expected);
    expect(await eventsOf('text/plain', [bytes])).toEqual(expected);
    for (let at = 1; at < bytes.length; at += 1) {
      expect(await eventsOf(JSON_TYPE, [bytes.subarray(0, at), bytes.subarray(at)])).toEqual(expected);
    }
  });

  it('a body that is not JSON is a malformed reply, with the status', async () => {
    const error = await failureOf(JSON_TYPE, ['<html>oops</html>'], 200);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'malformed', status: 200 });
    expect(await failureOf(JSON_TYPE, [])).toMatchObject({ kind: 'malformed' });
  });
});
