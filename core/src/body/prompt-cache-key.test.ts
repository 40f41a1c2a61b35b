import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../prompt/conversation.js';
import { placePromptCacheKey, promptCacheKey } from './prompt-cache-key.js';

describe('promptCacheKey', () => {
  const first = { role: 'user', content: 'start' } as const;
  it('is stable for a session as it grows, and differs by session name and by conversation', () => {
    const key = promptCacheKey('default', [first]);
    expect(key).toMatch(/^cw-[0-9a-f]{40}$/);
    expect(promptCacheKey('default', [first, { role: 'assistant', content: 'ok' }])).toBe(key);
    expect(promptCacheKey('other', [first])).not.toBe(key);
    expect(promptCacheKey('default', [{ role: 'user', content: 'another start' }])).not.toBe(key);
  });

  it('is written at the declared field only', () => {
    const body = { model: 'm' };
    placePromptCacheKey(body, null, 'k');
    expect(body).toEqual({ model: 'm' });
    placePromptCacheKey(body, 'prompt_cache_key', 'k');
    expect(body).toEqual({ model: 'm', prompt_cache_key: 'k' });
  });
});

describe('promptCacheKey of a stored, frozen conversation', () => {
  const frozenMessage = (content: string): ConversationMessage =>
    Object.freeze({ role: 'user', content }) as ConversationMessage;

  it('is the key a message that is not frozen gets, for each session name', () => {
    const stored = frozenMessage('first question');
    const plain = { role: 'user', content: 'first question' } as ConversationMessage;
    const expected = `cw-${createHash('sha256').update('s\n{"content":"first question","role":"user"}').digest('hex').slice(0, 40)}`;
    expect(promptCacheKey('s', [stored])).toBe(expected);
    expect(promptCacheKey('s', [stored])).toBe(expected);
    expect(promptCacheKey('s', [plain])).toBe(expected);
    expect(promptCacheKey('other', [stored])).toBe(promptCacheKey('other', [plain]));
    expect(promptCacheKey('other', [stored])).not.toBe(promptCacheKey('s', [stored]));
  });

  it('changes with the first message, frozen or changed in place when it is not', () => {
    const plain = { role: 'user', content: 'one' } as { role: 'user'; content: string };
    const before = promptCacheKey('s', [plain as ConversationMessage]);
    plain.content = 'two';
    expect(promptCacheKey('s', [plain as ConversationMessage])).not.toBe(before);
    expect(promptCacheKey('s', [frozenMessage('two')])).toBe(promptCacheKey('s', [plain as ConversationMessage]));
    expect(promptCacheKey('s', [frozenMessage('three')])).not.toBe(promptCacheKey('s', [frozenMessage('two')]));
  });
});
