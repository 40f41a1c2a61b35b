// Recorded replies (fixtures/README.md) read by cw's transport reader and this dialect's decoder.
import { describe, expect, it } from 'vitest';
import { decoding, recorded, replyFacts } from '../../../test/support/reply-decoding.js';
import { createAnthropicDecoder } from './anthropic-reply-decoder.js';

const { decode } = decoding(createAnthropicDecoder);
const fixture = (name: string): URL => new URL(`../fixtures/${name}`, import.meta.url);

const CALL = { id: 'toolu_01Example', name: 'query_database', arguments: '{"region":"West"}' };

describe('anthropic decoder: message_start that already carries content blocks and usage', () => {
  it('streamed: the tool_use of message_start is a tool call, and its usage is the reply usage', async () => {
    const reply = decode(await recorded(fixture('message-start-with-tool-use.sse')));
    expect(replyFacts(reply)).toEqual({
      text: '',
      reasoning: '',
      toolCalls: [CALL],
      usage: { input_tokens: 2140, output_tokens: 87 },
      finished: true,
    });
    expect(reply.finishReason).toBe('tool_use');
  });

  it('the blocking and the streamed reply decode to the same text, calls, reasoning and usage', async () => {
    const streamed = decode(await recorded(fixture('message-start-with-tool-use.sse')));
    const blocking = decode(await recorded(fixture('message-start-with-tool-use.json')));
    expect(blocking.reply().toolCalls).toEqual([CALL]);
    expect(replyFacts(streamed)).toEqual(replyFacts(blocking));
  });
});
