import { Readable, Writable } from 'node:stream';
import { type EarlyId, earlyInitializeId, initializeAnswerLine } from './initialize-answer.js';

// An editor starts `cw acp` and waits for the answer to `initialize`; loading the protocol SDK and
// the zod it validates with was most of that wait (docs/performance.md, "Every entry"). So cw reads
// the first line itself and, when it is an `initialize` it is sure of (initialize-answer.ts), writes
// the answer the SDK-based server would. The server still receives every byte: the `initialize`
// line first, so the SDK's connection is initialized and the handler sees the client's
// capabilities exactly as before, and the rest only once its own answer to that line has been
// written, and dropped, for the client has it already. Holding the rest back matters: a client
// answered early sends its next request at once, and the SDK refuses a request that reaches it
// before its answer to `initialize` is out. Any other first line goes to the server as it came.

/** The streams the server reads and writes after the first line was read. */
export interface AcpStreams {
  readonly input: Readable;
  readonly output: NodeJS.WritableStream;
}

/** Where `cw acp` talks, and the version `initialize` reports. */
export interface EarlyInitializeOptions {
  readonly input: Readable;
  readonly output: NodeJS.WritableStream;
  readonly version: string;
}

// A first line longer than this is left to the SDK, which reads lines of up to 32 MiB.
const FIRST_LINE_LIMIT = 1024 * 1024;
const NEWLINE = 0x0a;

/** Reads the first line of `input`, answers it when it is a plain `initialize`, and hands over the rest. */
export async function answerInitializeEarly(options: EarlyInitializeOptions): Promise<AcpStreams> {
  const { input, output, version } = options;
  const first = await readFirstLine(input);
  const id = first.lineEnd === -1 ? undefined : earlyInitializeId(lineText(first.bytes.subarray(0, first.lineEnd)));
  const rest = continuation(input, first.end);
  if (id === undefined) {
    rest.give(first.bytes);
    rest.release();
    return { input: rest.stream, output };
  }
  output.write(initializeAnswerLine(id, version));
  rest.give(first.bytes.subarray(0, first.lineEnd));
  const release = (): void => {
    rest.give(first.bytes.subarray(first.lineEnd));
    rest.release();
  };
  return { input: rest.stream, output: dropAnswer(output, id, release) };
}

interface FirstLine {
  /** Every byte read. */
  readonly bytes: Buffer;
  /** The offset just past the first newline, or -1 when none was read. */
  readonly lineEnd: number;
  /** How the input stood when reading stopped: still open, ended, or failed. */
  readonly end: 'open' | 'ended' | Error;
}

function readFirstLine(input: Readable): Promise<FirstLine> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const stop = (lineEnd: number, end: FirstLine['end']): void => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onError);
      if (end === 'open') input.pause();
      resolve({ bytes: Buffer.concat(chunks, length), lineEnd, end });
    };
    const onData = (chunk: Buffer): void => {
      const at = chunk.indexOf(NEWLINE);
      chunks.push(chunk);
      const before = length;
      length += chunk.length;
      if (at !== -1) stop(before + at + 1, 'open');
      else if (length > FIRST_LINE_LIMIT) stop(-1, 'open');
    };
    const onEnd = (): void => stop(-1, 'ended');
    const onError = (error: Error): void => stop(-1, error);
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('error', onError);
  });
}

/** The line as the SDK reads it: UTF-8, its line ending and surrounding whitespace trimmed. */
function lineText(line: Uint8Array): string {
  return new TextDecoder().decode(line).trim();
}

interface Continuation {
  /** What the server reads. */
  readonly stream: Readable;
  /** Queues bytes already read from the input. */
  give(bytes: Buffer): void;
  /** Lets the stream go on past the queued bytes, to the rest of the input. */
  release(): void;
}

/**
 * The input read on from where the first line left it: the bytes given, then, once released, what
 * the input brings. The input is read only when the server asks for more, and an input that ended
 * meanwhile ends a turn of the event loop after the last byte: the server meets the input's bytes
 * and its end as it would reading the input itself (the SDK drops the answer to a request still
 * being handled when the input ends).
 */
function continuation(input: Readable, end: FirstLine['end']): Continuation {
  const queued: Buffer[] = [];
  // Node may read the end of a paused input: it is remembered here, and handed on in its turn.
  let state = end;
  let held = true;
  let wanted = false;
  let forwarding = false;
  let finished = false;
  const stream = new Readable({
    read() {
      wanted = true;
      flush();
    },
    destroy(error, callback) {
      // As when the server reads the input itself: its end of the connection stops the input.
      input.destroy();
      callback(error);
    },
  });
  input.on('end', () => {
    state = 'ended';
    if (forwarding) stream.push(null);
  });
  input.on('error', (error: Error) => {
    state = error;
    if (forwarding) stream.destroy(error);
  });
  const flush = (): void => {
    while (wanted && queued.length > 0) wanted = stream.push(queued.shift());
    if (!wanted || held || finished) return;
    if (forwarding) {
      input.resume();
      return;
    }
    if (state !== 'open') {
      const stopped = state;
      finished = true;
      setImmediate(() => (stopped === 'ended' ? stream.push(null) : stream.destroy(stopped)));
      return;
    }
    forwarding = true;
    input.on('data', (chunk: Buffer) => {
      if (!stream.push(chunk)) input.pause();
    });
    input.resume();
  };
  return {
    stream,
    give(bytes) {
      if (bytes.length > 0) queued.push(bytes);
      flush();
    },
    release() {
      held = false;
      flush();
    },
  };
}

/**
 * `output`, less the server's own answer to request `id` (the first response with that id), after
 * which `release` runs. Until then each chunk is read as whole lines, as the server writes them.
 */
function dropAnswer(output: NodeJS.WritableStream, id: EarlyId, release: () => void): Writable {
  let waiting = true;
  let pending = Buffer.alloc(0);
  const writable = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (!waiting) {
        output.write(chunk, (error) => callback(error ?? null));
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      const kept: Buffer[] = [];
      let at = pending.indexOf(NEWLINE);
      while (waiting && at !== -1) {
        const line = pending.subarray(0, at + 1);
        pending = pending.subarray(at + 1);
        if (isAnswerTo(line, id)) waiting = false;
        else kept.push(line);
        at = pending.indexOf(NEWLINE);
      }
      if (!waiting) kept.push(pending);
      const done = (error?: Error | null): void => {
        callback(error ?? null);
        if (!waiting && error == null) release();
      };
      const text = Buffer.concat(kept);
      if (text.length === 0) done();
      else output.write(text, done);
    },
  });
  output.on('error', (error: Error) => writable.destroy(error));
  return writable;
}

function isAnswerTo(line: Buffer, id: EarlyId): boolean {
  try {
    const message = JSON.parse(line.toString('utf8')) as Record<string, unknown> | null;
    return (
      typeof message === 'object' &&
      message !== null &&
      !('method' in message) &&
      message['id'] === id &&
      ('result' in message || 'error' in message)
    );
  } catch {
    return false;
  }
}
