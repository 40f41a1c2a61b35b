// Recorded replies (fixtures/README.md) read by cw's transport reader and this dialect's decoder.
import { assembleReply } from '../../../core/src/reply/assemble-reply.js';
import { describe, expect, it } from 'vitest';
import { decoding, recorded, replyFacts } from '../../../test/support/reply-decoding.js';
import { createResponsesDecoder } from './responses-reply-decoder.js';

const { turnEvents, decode } = decoding(createResponsesDecoder);
const fixture = (name: string): URL => new URL(`../fixtures/${name}`, import.meta.url);

const COMMENTARY = 'Let me look at the workspace layout before answering.';
const FINAL = 'The repository has three packages: core, cli and plugins. Each plugin is its own npm package.';

describe('responses decoder: deltas that disagree with the .done events (phase messages)', () => {
  it('streamed: the text the .done events state is the reply, not the deltas', async () => {
    const reply = decode(await recorded(fixture('phase-deltas-disagree.sse')));
    expect(replyFacts(reply)).toEqual({
      text: COMMENTARY + FINAL,
      reasoning: '',
      toolCalls: [],
      usage: { input_tokens: 1210, output_tokens: 64 },
      finished: true,
    });
  });

  it('streamed: a .done that extends the deltas adds the rest as a delta; one that does not replaces the text', async () => {
    const events = turnEvents(await recorded(fixture('phase-deltas-disagree.sse')));
    expect(events.filter((event) => event.type === 'text-delta' || event.type === 'text-replace')).toEqual([
      { type: 'text-delta', text: 'Let me ' },
      { type: 'text-delta', text: 'look' },
      { type: 'text-delta', text: COMMENTARY.slice('Let me look'.length) },
      { type: 'text-delta', text: 'Thre' },
      { type: 'text-delta', text: 'e packages' },
      { type: 'text-replace', text: COMMENTARY + FINAL },
    ]);
    expect(assembleReply(events).reply().text).toBe(COMMENTARY + FINAL);
  });

  it('the blocking and the streamed reply decode to the same text, calls, reasoning and usage', async () => {
    const streamed = decode(await recorded(fixture('phase-deltas-disagree.sse')));
    const blocking = decode(await recorded(fixture('phase-deltas-disagree.json')));
    expect(replyFacts(streamed)).toEqual(replyFacts(blocking));
  });
});
