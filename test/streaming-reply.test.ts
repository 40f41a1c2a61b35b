import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runTurn } from '@cw/core';
import { FAKE_KEY, builtinRegistry, removeHome, snapshotOf, tempHome } from './support/cw-fixture.js';
import { readTurn } from './support/turn-events.js';

const ORIGIN = 'http://127.0.0.1:18082';

// One stream per dialect, cut so that the text arrives in three pieces, then the dialect's terminal event.
const STREAMS: Record<string, { path: string; events: unknown[]; terminal: string }> = {
  'chat-completions': {
    path: '/v1/chat/completions',
    events: [
      { choices: [{ delta: { content: 'Hel' } }] },
      { choices: [{ delta: { content: 'lo' } }] },
      { choices: [{ delta: { content: ' world' } }] },
    ],
    terminal: 'data: [DONE]\n\n',
  },
  'anthropic-messages': {
    path: '/v1/messages',
    events: ['Hel', 'lo', ' world'].map((text) => ({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text },
    })),
    terminal: 'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  },
  'openai-responses': {
    path: '/v1/responses',
    events: ['Hel', 'lo', ' world'].map((delta) => ({ type: 'response.output_text.delta', delta })),
    terminal: 'data: {"type":"response.completed","response":{"status":"completed","output":[]}}\n\n',
  },
};

describe('cw send prints reply text as it streams', () => {
  const homes: string[] = [];
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(async () => {
    nock.enableNetConnect();
    await Promise.all(homes.map(removeHome));
  });

  for (const [dialect, stream] of Object.entries(STREAMS)) {
    it(`${dialect}: each event's text reaches the sink in order, before the turn completes`, async () => {
      const home = await tempHome({
        route: 'stream',
        routes: {
          stream: {
            provider: 'custom',
            dialect,
            base_url: `${ORIGIN}/v1`,
            model: 'm',
            api_key_env: 'CW_STREAM_TEST_KEY',
          },
        },
      });
      homes.push(home);
      const seenBeforeLastChunk: string[] = [];
      const deltas: string[] = [];
      async function* chunks(): AsyncGenerator<string> {
        for (const event of stream.events) yield `data: ${JSON.stringify(event)}\n\n`;
        // The stream stays open until the sink has seen every delta (or two seconds pass): a sink fed
        // only once the reply is complete would still be empty here.
        for (let waited = 0; deltas.length < stream.events.length && waited < 2_000; waited += 10) await sleep(10);
        seenBeforeLastChunk.push(...deltas);
        yield stream.terminal;
      }
      nock(ORIGIN)
        .post(stream.path)
        .reply(200, () => Readable.from(chunks()), { 'content-type': 'text/event-stream' });
      const snapshot = await snapshotOf(home, await builtinRegistry());
      const { reply } = await readTurn(
        runTurn(snapshot, {
          home,
          prompt: 'say hello',
          entrypoint: 'streaming',
          env: { CW_STREAM_TEST_KEY: FAKE_KEY },
        }),
        (event) => (event.type === 'text-delta' ? deltas.push(event.text) : undefined),
      );
      expect(deltas).toEqual(['Hel', 'lo', ' world']);
      expect(seenBeforeLastChunk).toEqual(['Hel', 'lo', ' world']);
      expect(reply.text).toBe('Hello world');
    });
  }
});
