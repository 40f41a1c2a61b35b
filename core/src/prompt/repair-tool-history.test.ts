import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from './conversation.js';
import { NOT_EXECUTED_RESULT, repairToolHistory } from './repair-tool-history.js';

const call = (id: string): { id: string; name: string; arguments: string } => ({
  id,
  name: 'read_file',
  arguments: '{"path":"a"}',
});

describe('repairToolHistory', () => {
  it('leaves a well-formed history untouched', () => {
    const history: ConversationMessage[] = [
      { role: 'user', content: 'look' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'tool', tool_call_id: 'c1', name: 'read_file', content: 'text' },
      { role: 'assistant', content: 'done' },
    ];
    expect(repairToolHistory(history)).toEqual(history);
  });

  it('answers calls left open at the end, and before the next user message', () => {
    const history: ConversationMessage[] = [
      { role: 'user', content: 'look' },
      { role: 'assistant', content: '', tool_calls: [call('c1'), call('c2')] },
      { role: 'tool', tool_call_id: 'c2', name: 'read_file', content: 'two' },
      { role: 'user', content: 'next' },
      { role: 'assistant', content: 'ok', tool_calls: [call('c3')] },
    ];
    expect(repairToolHistory(history)).toEqual([
      history[0],
      history[1],
      history[2],
      { role: 'tool', tool_call_id: 'c1', name: 'read_file', content: NOT_EXECUTED_RESULT },
      history[3],
      history[4],
      { role: 'tool', tool_call_id: 'c3', name: 'read_file', content: NOT_EXECUTED_RESULT },
    ]);
  });

  it('drops tool results that answer no call, and duplicates', () => {
    const history: ConversationMessage[] = [
      { role: 'tool', tool_call_id: 'ghost', name: 'read_file', content: 'orphan' },
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'tool', tool_call_id: 'c1', name: 'read_file', content: 'first' },
      { role: 'tool', tool_call_id: 'c1', name: 'read_file', content: 'again' },
    ];
    expect(repairToolHistory(history)).toEqual([history[1], history[2]]);
  });

  it('is idempotent', () => {
    const history: ConversationMessage[] = [
      { role: 'assistant', content: '', tool_calls: [call('c1')] },
      { role: 'user', content: 'x' },
    ];
    const once = repairToolHistory(history);
    expect(repairToolHistory(once)).toEqual(once);
  });
});
