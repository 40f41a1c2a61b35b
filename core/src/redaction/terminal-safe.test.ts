import { describe, expect, it } from 'vitest';
import { terminalSafe, terminalSafeMultiline } from './terminal-safe.js';

describe('terminalSafe', () => {
  it('leaves ordinary text alone', () => {
    expect(terminalSafe('cw: route sha256:3f2a9c1e7b4d is not configured (see cw routes)')).toBe(
      'cw: route sha256:3f2a9c1e7b4d is not configured (see cw routes)',
    );
    expect(terminalSafe('caf\u00e9 \u65e5\u672c\u8a9e \u{1f600}')).toBe('caf\u00e9 \u65e5\u672c\u8a9e \u{1f600}');
  });

  it('folds line breaks and tabs to spaces', () => {
    expect(terminalSafe('a\nb\r\nc\rd\te\u2028f\u2029g\u0085h\u000bi\u000cj')).toBe('a b c d e f g h i j');
  });

  it('removes whole escape sequences, not just the ESC', () => {
    expect(terminalSafe('gpt-4.1\u001b[2J\u001b[H')).toBe('gpt-4.1');
    expect(terminalSafe('claude\u001b[31mFAILED\u001b[0m')).toBe('claudeFAILED');
    expect(terminalSafe('\u001b]8;;https://evil.example/\u0007click here\u001b]8;;\u0007')).toBe('click here');
    expect(terminalSafe('\u001b]52;c;Y2xpcA==\u0007x')).toBe('x');
    expect(terminalSafe('\u009b31mred')).toBe('red');
    expect(terminalSafe('\u001bP+q544e\u001b\\ok')).toBe('ok');
  });

  it('removes controls, bidi and zero-width characters', () => {
    expect(terminalSafe('bell\u0007\u0007 del\u007f nul\u0000')).toBe('bell del nul');
    expect(terminalSafe('gpt-4.1\u202e1.4-tpg')).toBe('gpt-4.11.4-tpg');
    for (const char of [
      '\u200b',
      '\u200c',
      '\u200d',
      '\u200e',
      '\u200f',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\ufeff',
      '\u061c',
      '\u00ad',
      '\u2060',
    ]) {
      expect(terminalSafe(`a${char}b`)).toBe('ab');
    }
    expect(terminalSafe('tag\u{e0041}\u{e0042}')).toBe('tag');
  });

  it('replaces lone surrogates', () => {
    expect(terminalSafe('a\ud800b\udc00c')).toBe('a\ufffdb\ufffdc');
  });

  it('is idempotent', () => {
    for (const text of ['a\r\n\u001b[1mb\u202e', '\u001b\u001b[31m]x', 'x\u001b]0;unterminated']) {
      expect(terminalSafe(terminalSafe(text))).toBe(terminalSafe(text));
    }
  });
});

describe('terminalSafeMultiline', () => {
  it('keeps newlines and tabs, turns a bare CR into a newline', () => {
    expect(terminalSafeMultiline('line one\n\tindented\r\nthree\rfour')).toBe('line one\n\tindented\nthree\nfour');
  });

  it('removes escape sequences, controls and bidi characters but keeps emoji joiners', () => {
    expect(terminalSafeMultiline('\u001b[2Jok\u0007 \u202eevil')).toBe('ok evil');
    const family = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}';
    expect(terminalSafeMultiline(family)).toBe(family);
  });
});
