import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../prompt/conversation.js';
import { isCompactable, splitHistory } from './split-history.js';

const user = (content: string): ConversationMessage => ({ role: 'user', content });
const answer = (content: string): ConversationMessage => ({ role: 'assistant', content });
const call = (id: string): ConversationMessage => ({
  role: 'assistant',
  content: '',
  tool_calls: [{ id, name: 'read_file', arguments: '{}' }],
});
const result = (id: string): ConversationMessage => ({
  role: 'tool',
  tool_call_id: id,
  name: 'read_file',
  content: 'r',
});
const summary: ConversationMessage = { role: 'user', content: 'summary', summary_of: 4 };

/** Every tool result in `messages` answers a call earlier in the same list. */
function paired(messages: readonly ConversationMessage[]): boolean {
  const open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const made of message.tool_calls ?? []) open.add(made.id);
    if (message.role === 'tool' && !open.delete(message.tool_call_id)) return false;
  }
  return open.size === 0;
}

describe('splitHistory', () => {
  const history = [user('a'), call('1'), result('1'), answer('x'), user('b'), call('2'), result('2'), answer('y')];

  it('cuts before the latest kept user turn, keeping every tool pair on one side', () => {
    const split = splitHistory(history, 1);
    expect(split.older).toEqual(history.slice(0, 4));
    expect(split.recent).toEqual(history.slice(4));
    expect(paired(split.older) && paired(split.recent)).toBe(true);
    expect(isCompactable(split)).toBe(true);
  });

  it('keeps more turns when asked, and everything when there are not that many', () => {
    expect(splitHistory(history, 2)).toEqual({ older: [], recent: history });
    expect(isCompactable(splitHistory(history, 2))).toBe(false);
    expect(splitHistory([], 1)).toEqual({ older: [], recent: [] });
  });

  it('a loop that stopped between steps keeps its open turn whole', () => {
    const stopped = [...history, user('c'), call('3'), result('3')];
    const split = splitHistory(stopped, 1);
    expect(split.recent).toEqual([user('c'), call('3'), result('3')]);
    expect(paired(split.older)).toBe(true);
  });

  it('a summary is part of the older side, and a lone summary is nothing to compact', () => {
    const compacted = [summary, user('b'), answer('y')];
    const split = splitHistory(compacted, 1);
    expect(split.older).toEqual([summary]);
    expect(isCompactable(split)).toBe(false);
    expect(isCompactable(splitHistory([summary, user('b'), answer('y'), user('c')], 1))).toBe(true);
  });
});
