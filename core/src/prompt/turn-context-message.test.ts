import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from './conversation.js';
import { inlineTurnContexts, lastTurnContext, placeTurnContext, withTurnContext } from './turn-context-message.js';

const MONDAY = '<turn-context>\ndate: 2026-03-02\n</turn-context>\n\n';
const TUESDAY = '<turn-context>\ndate: 2026-03-03\n</turn-context>\n\n';

const stored: ConversationMessage[] = [
  { role: 'user', content: 'first', turn_context: MONDAY },
  { role: 'assistant', content: 'ok' },
  { role: 'user', content: 'second' },
  { role: 'assistant', content: 'ok again' },
];

describe('placeTurnContext', () => {
  it('sends the block with a new message only when it differs from the last one stored', () => {
    expect(lastTurnContext(stored)).toBe(MONDAY);
    expect(placeTurnContext(MONDAY, 'turn', stored, true)).toEqual({ status: 'unchanged', block: MONDAY });
    expect(placeTurnContext(TUESDAY, 'turn', stored, true)).toEqual({ status: 'sent', block: TUESDAY });
    expect(placeTurnContext(MONDAY, undefined, [], true)).toEqual({ status: 'sent', block: MONDAY });
    expect(placeTurnContext(TUESDAY, 'turn', stored, false)).toEqual({ status: 'continuation', block: TUESDAY });
    expect(placeTurnContext(TUESDAY, 'side', [], true)).toEqual({ status: 'side-request', block: TUESDAY });
    expect(placeTurnContext(undefined, 'turn', [], true)).toEqual({ status: 'off', block: null });
  });

  it('stores the block with the message only when it is sent', () => {
    const message = { role: 'user', content: 'third' } as const;
    expect(withTurnContext(message, { status: 'sent', block: TUESDAY })).toEqual({ ...message, turn_context: TUESDAY });
    expect(withTurnContext(message, { status: 'unchanged', block: MONDAY })).toEqual(message);
  });
});

describe('inlineTurnContexts', () => {
  it('puts each stored block in front of its own message, and leaves every other message as it is', () => {
    const next = [...stored, { role: 'user', content: 'third', turn_context: TUESDAY } as const];
    const wire = inlineTurnContexts(next);
    expect(wire.map((message) => message.content)).toEqual([
      `${MONDAY}first`,
      'ok',
      'second',
      'ok again',
      `${TUESDAY}third`,
    ]);
    expect(wire.some((message) => 'turn_context' in message)).toBe(false);
    expect(wire[1]).toBe(next[1]);
    // The earlier turns are the same bytes whichever turn replays them.
    expect(JSON.stringify(inlineTurnContexts(stored))).toBe(JSON.stringify(wire.slice(0, stored.length)));
  });
});
