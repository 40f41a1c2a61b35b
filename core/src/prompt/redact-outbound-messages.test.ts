import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from './conversation.js';
import { OUTBOUND_SECRET_MARKER } from '../redaction/outbound-secrets.js';
import { redactOutboundMessages } from './redact-outbound-messages.js';

const KEY = `sk-test-${'0'.repeat(32)}`;
const messages: ConversationMessage[] = [
  { role: 'user', content: `key ${KEY}` },
  { role: 'assistant', content: `echo ${KEY}`, tool_calls: [{ id: 'c', name: 'shell', arguments: `{"k":"${KEY}"}` }] },
  { role: 'tool', tool_call_id: 'c', name: 'shell', content: `${KEY} and ${KEY}` },
];

describe('redactOutboundMessages', () => {
  it('replaces secrets in user text and tool results, counts them apart, and leaves assistant turns as the model wrote them', () => {
    const { messages: out, counts } = redactOutboundMessages(messages, true);
    expect(counts).toEqual({ enabled: true, userText: 1, toolResults: 2 });
    expect(out[0]).toEqual({ role: 'user', content: `key ${OUTBOUND_SECRET_MARKER}` });
    expect(out[1]).toBe(messages[1]);
    expect(out[2]?.content).toBe(`${OUTBOUND_SECRET_MARKER} and ${OUTBOUND_SECRET_MARKER}`);
    expect(messages[0]?.content).toContain(KEY);
  });

  it('off, sends the messages as they are', () => {
    const { messages: out, counts } = redactOutboundMessages(messages, false);
    expect(out).toBe(messages);
    expect(counts).toEqual({ enabled: false, userText: 0, toolResults: 0 });
  });

  it('gives a frozen message the same outbound copy and counts every time, and a changed unfrozen one a new copy', () => {
    const frozen = messages.map((message) => Object.freeze({ ...message }));
    const first = redactOutboundMessages(frozen, true);
    const second = redactOutboundMessages(frozen, true);
    expect(second.counts).toEqual(first.counts);
    expect(second.counts).toEqual({ enabled: true, userText: 1, toolResults: 2 });
    expect(second.messages[2]).toBe(first.messages[2]);
    expect(Object.isFrozen(second.messages[2])).toBe(true);
    expect(second.messages).toEqual(redactOutboundMessages(messages, true).messages);
    const open = { role: 'tool' as const, tool_call_id: 'c', name: 'shell', content: KEY };
    expect(redactOutboundMessages([open], true).counts.toolResults).toBe(1);
    open.content = 'nothing secret';
    const after = redactOutboundMessages([open], true);
    expect(after.counts.toolResults).toBe(0);
    expect(after.messages[0]?.content).toBe('nothing secret');
  });
});
