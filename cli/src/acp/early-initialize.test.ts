import { PassThrough, type Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { answerInitializeEarly } from './early-initialize.js';
import { initializeAnswerLine } from './initialize-answer.js';

const VERSION = '1.2.3';
const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } })}\n`;
const NEXT = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session/list', params: {} })}\n`;
const ANSWER = initializeAnswerLine(0, VERSION);

/** Everything a stream gives from now on, as text, read as it comes. */
function collect(stream: Readable): { text: () => string; ended: Promise<string> } {
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const ended = new Promise<string>((resolve, reject) => {
    stream.on('end', () => resolve(text));
    stream.on('error', reject);
  });
  return { text: () => text, ended };
}

/** Lets queued stream events run: a few turns of the event loop. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('answering initialize before the protocol SDK loads', () => {
  it('answers a plain initialize at once, and hands the rest on only after the server answered it too', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const written = collect(output);
    input.write(INITIALIZE + NEXT);
    const streams = await answerInitializeEarly({ input, output, version: VERSION });
    expect(written.text()).toBe(ANSWER);

    const read = collect(streams.input);
    await settle();
    expect(read.text()).toBe(INITIALIZE);
    // The server's own answer to that line is not sent twice; what it writes next is sent.
    streams.output.write(ANSWER);
    await settle();
    expect(written.text()).toBe(ANSWER);
    expect(read.text()).toBe(INITIALIZE + NEXT);
    streams.output.write('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    input.end('{"later":true}\n');
    expect(await read.ended).toBe(`${INITIALIZE}${NEXT}{"later":true}\n`);
    expect(written.text()).toBe(`${ANSWER}{"jsonrpc":"2.0","id":1,"result":{}}\n`);
  });

  it('waits for the whole line when initialize comes in pieces', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const written = collect(output);
    const early = answerInitializeEarly({ input, output, version: VERSION });
    for (const piece of [INITIALIZE.slice(0, 10), INITIALIZE.slice(10, 40), INITIALIZE.slice(40, -1)]) {
      input.write(piece);
      await settle();
      expect(written.text()).toBe('');
    }
    input.write(`\n${NEXT.slice(0, 5)}`);
    const streams = await early;
    expect(written.text()).toBe(ANSWER);
    const read = collect(streams.input);
    streams.output.write(ANSWER);
    input.end(NEXT.slice(5));
    expect(await read.ended).toBe(INITIALIZE + NEXT);
    expect(written.text()).toBe(ANSWER);
  });

  it('passes any other first line on as it came, and writes nothing', async () => {
    for (const first of [NEXT, 'not json\n', '\n', `${INITIALIZE.replace('"protocolVersion":1', '"v":1')}`]) {
      const input = new PassThrough();
      const output = new PassThrough();
      const written = collect(output);
      input.write(first);
      const streams = await answerInitializeEarly({ input, output, version: VERSION });
      expect(streams.output).toBe(output);
      const read = collect(streams.input);
      input.end(INITIALIZE);
      expect(await read.ended).toBe(first + INITIALIZE);
      expect(written.text()).toBe('');
    }
  });

  it('leaves a first line of over a mebibyte to the server, whole', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const written = collect(output);
    const long = `${JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: 1, _meta: { pad: 'x'.repeat(1536 * 1024) } },
    })}\n`;
    input.write(long.slice(0, 700_000));
    input.write(long.slice(700_000, 1_400_000));
    const streams = await answerInitializeEarly({ input, output, version: VERSION });
    const read = collect(streams.input);
    input.end(long.slice(1_400_000));
    expect(await read.ended).toBe(long);
    expect(written.text()).toBe('');
  });

  it('hands on an input that ends before a newline, then its end', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const written = collect(output);
    input.end(INITIALIZE.trim());
    const streams = await answerInitializeEarly({ input, output, version: VERSION });
    expect(await collect(streams.input).ended).toBe(INITIALIZE.trim());
    expect(written.text()).toBe('');
  });

  it('stops the input when the server stops reading', async () => {
    const input = new PassThrough();
    input.write(INITIALIZE);
    const streams = await answerInitializeEarly({ input, output: new PassThrough(), version: VERSION });
    streams.input.destroy();
    await settle();
    expect(input.destroyed).toBe(true);
  });
});
