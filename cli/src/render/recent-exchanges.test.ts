import { describe, expect, it } from 'vitest';
import { recentExchanges } from './recent-exchanges.js';

const safe = (text: string) => text.replace(/\x1b/g, '');

describe('recentExchanges', () => {
  it('shows the last three prompts and the text of their replies, not tool traffic', () => {
    const messages = [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'reply one' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: '' },
      { role: 'tool', content: 'TOOL OUTPUT' },
      { role: 'assistant', content: 'reply two' },
      { role: 'user', content: 'three\nlines' },
      { role: 'assistant', content: 'a\nb\nc\nd\ne\nf' },
      { role: 'user', content: 'four' },
      { role: 'assistant', content: 'reply \x1b[31mfour' },
    ];
    expect(recentExchanges(messages, safe, 80)).toEqual([
      '── the last 3 exchanges of 4 ──',
      '› two',
      '  reply two',
      '› three lines',
      '  a',
      '  b',
      '  c',
      '  d',
      '  … 2 more lines',
      '› four',
      '  reply [31mfour',
      '──',
    ]);
  });

  it('shows nothing for an empty session, and shortens long lines to the screen', () => {
    expect(recentExchanges([], safe, 80)).toEqual([]);
    const [, prompt] = recentExchanges([{ role: 'user', content: 'y'.repeat(500) }], safe, 40);
    expect(prompt).toBe(`› ${'y'.repeat(35)}…`);
  });
});
