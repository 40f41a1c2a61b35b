import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyHunks, countChanges, diffLines, splitLines, unifiedDiffText } from './unified-diff.js';

describe('diffLines', () => {
  it('shows one changed line with its context, numbered as unified diffs are', () => {
    const oldText = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const newText = 'a\nb\nc\nd\nE\nf\ng\nh\n';
    const hunks = diffLines(oldText, newText);
    expect(hunks).toHaveLength(1);
    expect(unifiedDiffText('notes.txt', hunks)).toBe(
      [
        '--- a/notes.txt',
        '+++ b/notes.txt',
        '@@ -2,7 +2,7 @@',
        ' b',
        ' c',
        ' d',
        '-e',
        '+E',
        ' f',
        ' g',
        ' h',
        '',
      ].join('\n'),
    );
    expect(countChanges(hunks)).toEqual({ added: 1, removed: 1 });
  });

  it('numbers a new file from line 0 and keeps far-apart changes in separate hunks', () => {
    expect(diffLines('', 'one\ntwo\n')[0]).toMatchObject({ oldStart: 0, oldLines: 0, newStart: 1, newLines: 2 });
    const lines = Array.from({ length: 30 }, (_, index) => `line ${index}\n`);
    const changed = [...lines];
    changed[2] = 'first\n';
    changed[25] = 'second\n';
    expect(diffLines(lines.join(''), changed.join(''))).toHaveLength(2);
  });

  it('finds nothing to show for the same text', () => {
    expect(diffLines('same\n', 'same\n')).toEqual([]);
  });

  it('refuses hunks that do not fit the text', () => {
    expect(() => applyHunks('x\n', diffLines('a\n', 'b\n'))).toThrow();
  });

  it('applying the hunks to the old text gives the new text (property)', () => {
    const line = fc.constantFrom('a', 'b', 'c', 'd', '', 'a b', '\r');
    const text = fc
      .tuple(fc.array(line, { maxLength: 24 }), fc.boolean())
      .map(([lines, end]) => lines.join('\n') + (end && lines.length > 0 ? '\n' : ''));
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 4 }), (oldText, newText, context) => {
        const hunks = diffLines(oldText, newText, context);
        expect(applyHunks(oldText, hunks)).toBe(newText);
        const { added, removed } = countChanges(hunks);
        // Every line counted is one that differs: no more than a whole replacement.
        expect(added).toBeLessThanOrEqual(splitLines(newText).length);
        expect(removed).toBeLessThanOrEqual(splitLines(oldText).length);
      }),
      { numRuns: 300 },
    );
  });
});
