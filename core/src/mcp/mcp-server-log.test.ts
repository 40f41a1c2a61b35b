import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMcpServerLog, StderrTail, writeMcpServerLog } from './mcp-server-log.js';

describe('StderrTail', () => {
  it('keeps whole lines, redacted, and only the last ones', () => {
    const tail = new StderrTail((text) => text.split('hunter2-secret').join(''));
    tail.push('starting\nreading /home/me/private/notes.txt now\nkey sk-abcdefghijklmnopqrstuv');
    tail.push('wxyz\npassword hunter2-secret\n\n');
    tail.push('exiting without newline');
    tail.end();
    const lines = tail.lines();
    expect(lines[0]).toBe('starting');
    expect(lines[1]).toBe('reading <path-redacted> now');
    expect(lines.join('\n')).not.toContain('sk-abcdefghijklmnopqrstuvwxyz');
    expect(lines.join('\n')).not.toContain('hunter2-secret');
    expect(lines.at(-1)).toBe('exiting without newline');
    expect(tail.lastWords(2)).toBe(`${lines.at(-2)} | exiting without newline`);
    const many = new StderrTail();
    for (let index = 0; index < 500; index += 1) many.push(`line ${index}\n`);
    expect(many.lines()).toHaveLength(200);
    expect(many.lines()[0]).toBe('line 300');
    expect(new StderrTail().lastWords()).toBeNull();
  });

  it('the log file is replaced whole, and reads as null before the first run', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cw-mcp-log-'));
    try {
      expect(await readMcpServerLog(home, 'files')).toBeNull();
      await writeMcpServerLog(home, 'files', ['one', 'two']);
      await writeMcpServerLog(home, 'files', ['three']);
      expect(await readMcpServerLog(home, 'files')).toBe('three\n');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
