import * as acp from '@agentclientprotocol/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, earlyInitializeId, initializeAnswerLine, initializeResult } from './initialize-answer.js';

const VERSION = '1.2.3';

/** The first line the SDK's agent writes for `line`, its `initialize` handler being serve-acp.ts's. */
async function sdkAnswer(line: string): Promise<string> {
  let written = '';
  let answered: (text: string) => void = () => undefined;
  const answer = new Promise<string>((resolve) => {
    answered = resolve;
  });
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(line));
    },
  });
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      written += new TextDecoder().decode(chunk);
      if (written.includes('\n')) answered(written.slice(0, written.indexOf('\n') + 1));
    },
  });
  const connection = acp
    .agent({ name: 'cw' })
    .onRequest(acp.methods.agent.initialize, () => initializeResult(VERSION))
    .connect(acp.ndJsonStream(output, input));
  try {
    return await answer;
  } finally {
    connection.close();
  }
}

const initialize = (id: unknown, params?: unknown): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', ...(params === undefined ? {} : { params }) })}\n`;

describe("cw's own answer to initialize", () => {
  it('speaks the protocol version of the SDK cw serves with', () => {
    expect(PROTOCOL_VERSION).toBe(acp.PROTOCOL_VERSION);
  });

  it('is, byte for byte, what the SDK writes, for the versions a client may send and any id', async () => {
    const lines = [
      initialize(0, { protocolVersion: 1, clientCapabilities: {} }),
      initialize(7, { protocolVersion: 0 }),
      initialize('init-1', { protocolVersion: 2, clientCapabilities: { fs: { readTextFile: true }, terminal: true } }),
      initialize(-3, { protocolVersion: 65535, clientInfo: { name: 'zed', version: '1' }, _meta: { a: 1 } }),
      initialize(Number.MAX_SAFE_INTEGER, { protocolVersion: 1, clientCapabilities: 'not an object' }),
      initialize('ü "quoted" \u2028', { protocolVersion: 1 }),
    ];
    for (const line of lines) {
      const id = earlyInitializeId(line.trim());
      expect(id, line).toBeDefined();
      expect(initializeAnswerLine(id as string | number, VERSION)).toBe(await sdkAnswer(line));
    }
  });

  it('is given only where the SDK answers with that result', async () => {
    const id = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.boolean());
    const protocolVersion = fc.oneof(
      fc.integer({ min: -2, max: 70_000 }),
      fc.double(),
      fc.string(),
      fc.constant(null),
      fc.constant(undefined),
    );
    const params = fc.oneof(
      fc.record(
        { protocolVersion, clientCapabilities: fc.jsonValue(), clientInfo: fc.jsonValue(), extra: fc.jsonValue() },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
      fc.constant(undefined),
    );
    await fc.assert(
      fc.asyncProperty(id, params, async (id, params) => {
        const line = initialize(id, params);
        const early = earlyInitializeId(line.trim());
        if (early !== undefined) expect(initializeAnswerLine(early, VERSION)).toBe(await sdkAnswer(line));
      }),
      { numRuns: 300 },
    );
  });

  it('is not given for anything but a well-formed initialize', () => {
    const declined = [
      '',
      'not json',
      '[]',
      JSON.stringify([JSON.parse(initialize(0, { protocolVersion: 1 }))]),
      JSON.stringify({ jsonrpc: '1.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'initialize', params: { protocolVersion: 1 } }),
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'session/new', params: { protocolVersion: 1 } }),
      initialize(null, { protocolVersion: 1 }),
      initialize(1.5, { protocolVersion: 1 }),
      initialize(0),
      initialize(0, null),
      initialize(0, [1]),
      initialize(0, {}),
      initialize(0, { protocolVersion: '1' }),
      initialize(0, { protocolVersion: 1.5 }),
      initialize(0, { protocolVersion: -1 }),
      initialize(0, { protocolVersion: 65536 }),
    ];
    for (const line of declined) expect(earlyInitializeId(line.trim()), line).toBeUndefined();
  });
});
