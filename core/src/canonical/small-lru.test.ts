import { describe, expect, it } from 'vitest';
import { SmallLru } from './small-lru.js';

describe('SmallLru', () => {
  it('answers what was stored, and a stored key again replaces its value', () => {
    const lru = new SmallLru<string, number>(2);
    lru.set('a', 1);
    expect(lru.get('a')).toBe(1);
    expect(lru.get('b')).toBeUndefined();
    lru.set('a', 2);
    expect(lru.get('a')).toBe(2);
    expect(lru.size).toBe(1);
  });

  it('drops the least recently used entry when full: a read counts as a use', () => {
    const lru = new SmallLru<string, number>(3);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    lru.get('a');
    lru.set('d', 4);
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c'), lru.get('d')]).toEqual([1, 3, 4]);
    lru.set('c', 30);
    lru.set('e', 5);
    // 'a' was read before 'c' was stored again and 'd' read after: 'a' is now the oldest use.
    expect(lru.get('a')).toBeUndefined();
    expect(lru.size).toBe(3);
    lru.clear();
    expect(lru.size).toBe(0);
  });
});
