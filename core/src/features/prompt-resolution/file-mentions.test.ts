import { describe, expect, it } from 'vitest';
import { findMentions, unescapeMentions } from './file-mentions.js';

describe('findMentions', () => {
  it('finds @path and @"quoted path" at word starts, each once, without trailing punctuation', () => {
    expect(findMentions('see @src/a.ts, @"docs/read me.md" and @src/a.ts.').map((m) => m.path)).toEqual([
      'src/a.ts',
      'docs/read me.md',
    ]);
    expect(findMentions('@start then\n@next')).toEqual([{ path: 'start' }, { path: 'next' }]);
  });

  it('ignores @ inside words and escaped @@', () => {
    expect(findMentions('mail me@example.com or write @@scope/pkg')).toEqual([]);
    expect(unescapeMentions('write @@scope/pkg, not a@@b')).toBe('write @scope/pkg, not a@@b');
  });
});
