import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from './conversation.js';
import { selectReplay } from './select-replay.js';

const thinking = (dialect: string, text: string) => ({ dialect, items: [{ type: 'thinking', thinking: text }] });
const history: ConversationMessage[] = [
  { role: 'user', content: 'first' },
  {
    role: 'assistant',
    content: '',
    replay: thinking('anthropic-messages', 'old'),
    tool_calls: [{ id: 'a', name: 't', arguments: '{}' }],
  },
  { role: 'tool', tool_call_id: 'a', name: 't', content: 'r' },
  { role: 'assistant', content: 'done', replay: thinking('anthropic-messages', 'old end') },
  { role: 'user', content: 'second' },
  {
    role: 'assistant',
    content: '',
    replay: thinking('anthropic-messages', 'now'),
    tool_calls: [{ id: 'b', name: 't', arguments: '{}' }],
  },
  { role: 'tool', tool_call_id: 'b', name: 't', content: 'r' },
];
const kept = (messages: ConversationMessage[]) =>
  messages.flatMap((message) => (message.role === 'assistant' && message.replay ? [message.replay.items] : []));

describe('selectReplay', () => {
  it('tool-loop keeps reasoning state only on the steps since the last user message', () => {
    expect(kept(selectReplay(history, 'anthropic-messages', 'tool-loop'))).toEqual([
      [{ type: 'thinking', thinking: 'now' }],
    ]);
  });

  it('always keeps all of it, never none of it', () => {
    expect(kept(selectReplay(history, 'anthropic-messages', 'always'))).toHaveLength(3);
    expect(kept(selectReplay(history, 'anthropic-messages', 'never'))).toEqual([]);
  });

  it('another dialect never receives it, and nothing else about a message changes', () => {
    const out = selectReplay(history, 'chat-completions', 'always');
    expect(kept(out)).toEqual([]);
    expect(out.map((message) => message.content)).toEqual(history.map((message) => message.content));
  });
});
