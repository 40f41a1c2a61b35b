import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileTool } from './read-file-tool.js';
import { useTempWorkspace } from './workspace-fixture.js';

const workspace = useTempWorkspace();
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read_file', () => {
  it('reads a text file whole', async () => {
    const ws = workspace();
    await ws.write('a.txt', 'one\ntwo\n');
    expect(await ws.run(readFileTool, { path: 'a.txt' })).toEqual({ status: 'ok', content: 'one\ntwo' });
  });

  it('reads a line range and says which lines it shows', async () => {
    const ws = workspace();
    await ws.write('a.txt', numbered(10));
    expect(await ws.run(readFileTool, { path: 'a.txt', start_line: 3, end_line: 4 })).toEqual({
      status: 'ok',
      content: 'line 3\nline 4\n[showing lines 3-4 of 10]',
    });
    expect((await ws.run(readFileTool, { path: 'a.txt', start_line: 9, end_line: 50 })).content).toBe(
      'line 9\nline 10\n[showing lines 9-10 of 10]',
    );
  });

  it('refuses a range past the end or backwards', async () => {
    const ws = workspace();
    await ws.write('a.txt', numbered(3));
    expect(await ws.run(readFileTool, { path: 'a.txt', start_line: 5 })).toEqual({
      status: 'error',
      content: 'start_line 5 is past the end of a.txt, which has 3 lines',
    });
    expect((await ws.run(readFileTool, { path: 'a.txt', start_line: 3, end_line: 2 })).status).toBe('error');
  });

  it('truncates at the line limit with a note that tells how to read on', async () => {
    const ws = workspace();
    await ws.write('big.txt', numbered(9000));
    const outcome = await ws.run(
      readFileTool,
      { path: 'big.txt' },
      { limits: { outputLines: 2000, outputBytes: 1e6 } },
    );
    expect(outcome.status).toBe('ok');
    const lines = outcome.content.split('\n');
    expect(lines).toHaveLength(2001);
    expect(lines[1999]).toBe('line 2000');
    expect(lines[2000]).toBe('[truncated: showing lines 1-2000 of 9000; use start_line/end_line to read more]');
  });

  it('truncates at the byte limit too', async () => {
    const ws = workspace();
    await ws.write('big.txt', numbered(100));
    const outcome = await ws.run(readFileTool, { path: 'big.txt', start_line: 10 }, { limits: { outputBytes: 30 } });
    expect(outcome.content).toBe(
      'line 10\nline 11\nline 12\n[truncated: showing lines 10-12 of 100; use start_line/end_line to read more]',
    );
  });

  it('shows the start of a single line longer than the byte limit', async () => {
    const ws = workspace();
    await ws.write('min.js', `${'x'.repeat(200_000)}\nshort\n`);
    const outcome = await ws.run(readFileTool, { path: 'min.js' }, { limits: { outputBytes: 100 } });
    expect(outcome.content).toBe(
      `${'x'.repeat(100)}\n[truncated: line 1 is longer than the 100-byte output limit; showing its start only]`,
    );
  });

  it('refuses binary files', async () => {
    const ws = workspace();
    await ws.write('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    expect(await ws.run(readFileTool, { path: 'img.png' })).toEqual({
      status: 'error',
      content: 'img.png looks like a binary file (a NUL byte in its first 8 KiB); read_file reads text only',
    });
  });

  it('reports a missing file, a directory and an empty file clearly', async () => {
    const ws = workspace();
    await mkdir(path.join(ws.root, 'src'));
    await ws.write('empty.txt', '');
    expect(await ws.run(readFileTool, { path: 'nope.txt' })).toEqual({
      status: 'error',
      content: 'nope.txt: file not found; use list_directory or search to find it',
    });
    expect(await ws.run(readFileTool, { path: 'src' })).toEqual({
      status: 'error',
      content: 'src is a directory; use list_directory to see its entries',
    });
    expect(await ws.run(readFileTool, { path: 'empty.txt' })).toEqual({
      status: 'ok',
      content: '[empty.txt is empty]',
    });
  });

  it('stays inside the workspace', async () => {
    const ws = workspace();
    await symlink(ws.outside, path.join(ws.root, 'out'));
    await ws.write('../outside/secret.txt', 'TOP-SECRET-CONTENT');
    for (const requested of ['../outside/secret.txt', '/etc/passwd', 'out/secret.txt']) {
      const outcome = await ws.run(readFileTool, { path: requested });
      expect(outcome.status).toBe('error');
      expect(outcome.content).toContain('path is outside the workspace');
      expect(outcome.content).not.toContain('TOP-SECRET');
      expect(outcome.content).not.toContain(ws.outside);
    }
  });

  it('reads through a symbolic link inside pointing inside', async () => {
    const ws = workspace();
    await ws.write('real/a.txt', 'hello');
    await symlink(path.join(ws.root, 'real'), path.join(ws.root, 'alias'));
    expect(await ws.run(readFileTool, { path: 'alias/a.txt' })).toEqual({ status: 'ok', content: 'hello' });
  });

  it('turns wrong argument types into errors', async () => {
    const ws = workspace();
    expect(await ws.run(readFileTool, { path: 7 })).toEqual({
      status: 'error',
      content: 'argument path must be a string',
    });
    expect(await ws.run(readFileTool, {})).toEqual({ status: 'error', content: 'missing required argument path' });
    expect((await ws.run(readFileTool, { path: 'a', start_line: 1.5 })).status).toBe('error');
    expect((await ws.run(readFileTool, { path: 'a', start_line: 0 })).status).toBe('error');
  });

  it('is read-only and summarizes as its path', () => {
    expect(readFileTool.readOnly).toBe(true);
    expect(readFileTool.summarize?.({ path: 'src/a.ts' })).toBe('src/a.ts');
  });
});

describe('read_file and deny_read', () => {
  it('refuses a denied file, directly or through a link inside, naming the entry and never the path', async () => {
    const ws = workspace();
    await ws.write('.env', 'TOKEN=sk-test-0denied\n');
    await ws.write('secrets/key.txt', 'sk-test-0denied-too\n');
    await ws.write('README.md', 'hello\n');
    await symlink(path.join(ws.root, '.env'), path.join(ws.root, 'env-link'));
    const files = await ws.denyRead(['.env', 'secrets']);
    const read = (relative: string) => ws.run(readFileTool, { path: relative }, { files });
    expect(await read('.env')).toEqual({
      status: 'error',
      content: "refused: deny_read entry 1 is hidden from cw's tools and commands",
    });
    expect((await read('env-link')).content).toBe("refused: deny_read entry 1 is hidden from cw's tools and commands");
    expect((await read('secrets/key.txt')).content).toBe(
      "refused: deny_read entry 2 is hidden from cw's tools and commands",
    );
    expect(await read('README.md')).toEqual({ status: 'ok', content: 'hello' });
  });
});
