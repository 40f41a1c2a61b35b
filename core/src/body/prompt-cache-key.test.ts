import { describe, expect, it } from 'vitest';
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
