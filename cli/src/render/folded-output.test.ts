import { terminalSafe } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { foldedOutput } from './folded-output.js';

const numbered = (count: number): string => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

describe('foldedOutput', () => {
  it('shows short output whole', () => {
    expect(foldedOutput('one\ntwo\n', terminalSafe, 80)).toEqual(['one', 'two']);
  });

  it('shows the first eight lines of long output and counts the rest', () => {
    const out = foldedOutput(`${numbered(30)}\n`, terminalSafe, 80);
    expect(out).toEqual([...numbered(8).split('\n'), '… +22 lines']);
  });

  it('shows a ninth line rather than folding one line away', () => {
    expect(foldedOutput(numbered(9), terminalSafe, 80)).toEqual(numbered(9).split('\n'));
  });

  it('shows nothing for empty output and drops blank lines at its ends', () => {
    expect(foldedOutput('\n\n  \n', terminalSafe, 80)).toEqual([]);
    expect(foldedOutput('\n\nfound it\n\n', terminalSafe, 80)).toEqual(['found it']);
  });

  it('cuts a long line at the width and keeps the tool’s escape sequences off the terminal', () => {
    expect(foldedOutput(`\u001b[31m${'x'.repeat(30)}\u001b[0m\r\nnext\u0007`, terminalSafe, 10)).toEqual([
      `${'x'.repeat(9)}…`,
      'next',
    ]);
  });
});
