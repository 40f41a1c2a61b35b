import { terminalSafeMultiline } from '@cw/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerminalSafeStream } from './terminal-safe-stream.js';

/** What the stream lets through when `text` arrives cut at `positions`. */
function streamed(text: string, positions: readonly number[]): string {
  const stream = new TerminalSafeStream(terminalSafeMultiline);
  const at = [...new Set(positions.map((position) => position % (text.length + 1)))].sort((a, b) => a - b);
  let out = '';
  let from = 0;
  for (const position of at) {
    out += stream.push(text.slice(from, position));
    from = position;
  }
  return out + stream.push(text.slice(from)) + stream.end();
}

// Pieces that mean something to a terminal, and plain text around them.
const piece = fc.constantFrom(
  '\u001b[31m',
  '\u001b[2J',
  '\u009b1;2H',
  '\u001b]0;title\u0007',
  '\u001b]8;;https://example.com/\u001b\\',
  '\u001bP+q\u009c',
  '\u001b',
  '\r',
  '\n',
  '\r\n',
  '\ud83d\ude00',
  '\u200b',
  'text',
  ' ',
  '[',
);

describe('TerminalSafeStream', () => {
  it('lets through what the whole text made terminal-safe is, however it is cut (property)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 12 }), (pieces, positions) => {
        const text = pieces.join('');
        expect(streamed(text, positions)).toBe(terminalSafeMultiline(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('holds an escape sequence until it is whole, then lets none of it through', () => {
    const stream = new TerminalSafeStream(terminalSafeMultiline);
    expect(stream.push('red \u001b[3')).toBe('red ');
    expect(stream.push('1mtext')).toBe('text');
    expect(stream.push('\u001b]0;a title')).toBe('');
    expect(stream.push(' goes\u0007 on')).toBe(' on');
    expect(stream.end()).toBe('');
  });
});
