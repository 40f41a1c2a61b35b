import { describe, expect, it } from 'vitest';
import { HeadTailBuffer, keepHeadLines, utf8Complete, utf8Head, utf8Tail } from './bound-output.js';

const limits = (outputBytes: number, outputLines = 1000) => ({ outputBytes, outputLines, commandTimeoutMs: 1000 });

describe('UTF-8 cuts', () => {
  const text = Buffer.from('aé€😀b'); // 1 + 2 + 3 + 4 + 1 bytes
  it('never split a character', () => {
    expect(utf8Head(text, 2).toString()).toBe('a');
    expect(utf8Head(text, 3).toString()).toBe('aé');
    expect(utf8Head(text, 9).toString()).toBe('aé€');
    expect(utf8Tail(text, 4).toString()).toBe('b');
    expect(utf8Tail(text, 5).toString()).toBe('😀b');
    expect(utf8Complete(text.subarray(0, 8)).toString()).toBe('aé€');
    expect(utf8Complete(text.subarray(0, 6)).toString()).toBe('aé€');
    expect(utf8Complete(text).toString()).toBe('aé€😀b');
  });
});

describe('keepHeadLines', () => {
  it('keeps whole lines within both limits', () => {
    expect(keepHeadLines(['a', 'b', 'c'], limits(100, 2))).toEqual({ lines: ['a', 'b'], truncated: true });
    expect(keepHeadLines(['aaa', 'bbb', 'c'], limits(8))).toEqual({ lines: ['aaa', 'bbb'], truncated: true });
    expect(keepHeadLines(['a', 'b'], limits(100))).toEqual({ lines: ['a', 'b'], truncated: false });
  });

  it('cuts a first line longer than the byte limit', () => {
    expect(keepHeadLines(['x'.repeat(50)], limits(10))).toEqual({ lines: ['x'.repeat(10)], truncated: true });
  });
});

describe('HeadTailBuffer', () => {
  it('returns small output whole', () => {
    const buffer = new HeadTailBuffer(limits(100));
    buffer.push(Buffer.from('hello '));
    buffer.push(Buffer.from('world\n'));
    expect(buffer.render()).toBe('hello world\n');
  });

  it('keeps the head and the tail of a large stream with a note between, in bounded memory', () => {
    const buffer = new HeadTailBuffer(limits(40));
    for (let i = 0; i < 1000; i++) buffer.push(Buffer.from(`line ${String(i).padStart(4, '0')}\n`));
    const rendered = buffer.render();
    expect(rendered.startsWith('line 0000\nline 0001\n')).toBe(true);
    expect(rendered.endsWith('line 0998\nline 0999\n')).toBe(true);
    expect(rendered).toMatch(/\[\.\.\. \d+ bytes omitted \.\.\.\]/);
    const omitted = Number(/(\d+) bytes omitted/.exec(rendered)?.[1]);
    const kept = Buffer.byteLength(rendered.replace(/\[\.\.\. \d+ bytes omitted \.\.\.\]\n/, ''));
    expect(kept + omitted).toBe(buffer.totalBytes);
    expect(kept).toBeLessThanOrEqual(40);
  });

  it('applies the line limit to head and tail', () => {
    const buffer = new HeadTailBuffer(limits(10_000, 4));
    for (let i = 1; i <= 10; i++) buffer.push(Buffer.from(`${i}\n`));
    expect(buffer.render()).toBe('1\n2\n[... 12 bytes omitted ...]\n9\n10\n');
  });
});
