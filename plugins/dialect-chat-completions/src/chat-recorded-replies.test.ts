// Recorded replies (fixtures/README.md) read by cw's transport reader and this dialect's decoder.
import { assembleReply } from '../../../core/src/reply/assemble-reply.js';
import { describe, expect, it } from 'vitest';
import { decoding, recorded, replyFacts } from '../../../test/support/reply-decoding.js';
import { createChatDecoder } from './chat-reply-decoder.js';

const { turnEvents, decode } = decoding(createChatDecoder);
const fixture = (name: string): URL => new URL(`../fixtures/${name}`, import.meta.url);

const THINKING = 'The user asks for the sum of 17 and 25. 17 + 25 = 42.';
const ANSWER = 'The sum of 17 and 25 is **42**.';

describe('chat decoder: content as an array of typed parts (Mistral reasoning models)', () => {
  it('streamed: text parts and string deltas are the reply, thinking parts are reasoning', async () => {
    const reply = decode(await recorded(fixture('magistral-thinking-parts.sse')));
    expect(replyFacts(reply)).toEqual({
      text: ANSWER,
      reasoning: THINKING,
      toolCalls: [],
      usage: { input_tokens: 18, output_tokens: 43 },
      finished: true,
    });
    expect(reply.malformedAt).toBeNull();
  });

  it('blocking: the same parts in message.content decode to the same text and reasoning', async () => {
    const reply = decode(await recorded(fixture('magistral-thinking-parts.json')));
    expect(reply.reply().text).toBe(ANSWER);
    expect(reply.reasoningText).toBe(THINKING);
    expect(reply.finishReason).toBe('stop');
  });

  it('the blocking and the streamed reply decode to the same text, calls, reasoning and usage', async () => {
    const streamed = decode(await recorded(fixture('magistral-thinking-parts.sse')));
    const blocking = decode(await recorded(fixture('magistral-thinking-parts.json')));
    expect(replyFacts(streamed)).toEqual(replyFacts(blocking));
  });
});

describe('chat decoder: a stream of no known chunk shape', () => {
  it('is malformed at its first odd event, even though [DONE] closes it', async () => {
    const events = turnEvents(await recorded(fixture('no-known-shape.sse')));
    expect(events.filter((event) => event.type === 'malformed-event')).toEqual([
      { type: 'malformed-event', position: 1 },
      { type: 'malformed-event', position: 2 },
    ]);
    expect(assembleReply(events).malformedAt).toBe(1);
    // The position is all that is kept: nothing of the event's content is in any turn event.
    expect(JSON.stringify(events)).not.toMatch(/foo|bar/);
  });
});
