import { describe, expect, it } from 'vitest';
import { wrapWords } from './wrap-text.js';

describe('wrapWords', () => {
  it('fills lines greedily and never exceeds the width', () => {
    const lines = wrapWords('the quick brown fox jumps over the lazy dog', 10, 10);
    expect(lines.map((line) => line.text)).toEqual(['the quick', 'brown fox', 'jumps over', 'the lazy', 'dog']);
    expect(lines.every((line) => !line.long && line.text.length <= 10)).toBe(true);
  });

  it('flags a word wider than the width and cuts it at the long width', () => {
    const digest = 'a'.repeat(64);
    const lines = wrapWords(`hash ${digest} end`, 47, 76);
    expect(lines).toEqual([
      { text: 'hash', long: false },
      { text: digest, long: true },
      { text: 'end', long: false },
    ]);
    expect(wrapWords('b'.repeat(100), 10, 40).map((line) => line.text.length)).toEqual([40, 40, 20]);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(wrapWords('🐳🐳🐳 🐳', 4, 4)).toEqual([
      { text: '🐳🐳🐳', long: false },
      { text: '🐳', long: false },
    ]);
  });

  it('an empty value is one empty line', () => expect(wrapWords('', 10, 10)).toEqual([{ text: '', long: false }]));
});
