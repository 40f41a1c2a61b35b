import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listDirectoryTool } from './list-directory-tool.js';
import { useTempWorkspace } from './workspace-fixture.js';

const workspace = useTempWorkspace();

describe('list_directory', () => {
  it('lists entries sorted, folders with a trailing slash', async () => {
    const ws = workspace();
    await ws.write('b.txt', '');
    await ws.write('a.txt', '');
    await ws.write('src/x.ts', '');
    await ws.write('Z.md', '');
    expect(await ws.run(listDirectoryTool, { path: '.' })).toEqual({
      status: 'ok',
      content: 'Z.md\na.txt\nb.txt\nsrc/',
    });
  });

  it('lists recursively depth first, naming .git and node_modules without entering them', async () => {
    const ws = workspace();
    await ws.write('src/lib/b.ts', '');
    await ws.write('src/a.ts', '');
    await ws.write('.git/HEAD', '');
    await ws.write('node_modules/pkg/index.js', '');
    await ws.write('README.md', '');
    expect(await ws.run(listDirectoryTool, { path: '.', recursive: true })).toEqual({
      status: 'ok',
      content: [
        '.git/',
        'README.md',
        'node_modules/',
        'src/',
        'src/a.ts',
        'src/lib/',
        'src/lib/b.ts',
        '[.git and node_modules folders are listed but not descended into]',
      ].join('\n'),
    });
  });

  it('lists a subfolder relative to itself', async () => {
    const ws = workspace();
    await ws.write('src/lib/b.ts', '');
    expect((await ws.run(listDirectoryTool, { path: 'src', recursive: true })).content).toBe('lib/\nlib/b.ts');
  });

  it('truncates with a note', async () => {
    const ws = workspace();
    for (let i = 0; i < 30; i++) await ws.write(`f${String(i).padStart(2, '0')}.txt`, '');
    const outcome = await ws.run(listDirectoryTool, { path: '.' }, { limits: { outputLines: 5 } });
    expect(outcome).toEqual({
      status: 'ok',
      content:
        'f00.txt\nf01.txt\nf02.txt\nf03.txt\nf04.txt\n' +
        '[truncated: showing the first 5 entries; list a subdirectory or drop recursive to see more]',
    });
  });

  it('marks symbolic links without following them', async () => {
    const ws = workspace();
    await ws.write('real/a.txt', '');
    await symlink(path.join(ws.root, 'real'), path.join(ws.root, 'alias'));
    await symlink(ws.outside, path.join(ws.root, 'escape'));
    expect((await ws.run(listDirectoryTool, { path: '.', recursive: true })).content).toBe(
      'alias@\nescape@\nreal/\nreal/a.txt\n[a trailing @ marks a symbolic link]',
    );
    // A link inside pointing inside can be listed; one pointing out cannot.
    expect((await ws.run(listDirectoryTool, { path: 'alias' })).content).toBe('a.txt');
    const escaped = await ws.run(listDirectoryTool, { path: 'escape' });
    expect(escaped.status).toBe('error');
    expect(escaped.content).toContain('path is outside the workspace');
  });

  it('refuses paths outside, files, and missing folders', async () => {
    const ws = workspace();
    await ws.write('a.txt', '');
    await mkdir(path.join(ws.root, 'empty'));
    expect((await ws.run(listDirectoryTool, { path: '..' })).content).toContain('path is outside the workspace');
    expect((await ws.run(listDirectoryTool, { path: '/etc' })).content).toContain('path is outside the workspace');
    expect(await ws.run(listDirectoryTool, { path: 'a.txt' })).toEqual({
      status: 'error',
      content: 'a.txt is not a directory; use read_file to read a file',
    });
    expect(await ws.run(listDirectoryTool, { path: 'nope' })).toEqual({
      status: 'error',
      content: 'nope: no such directory',
    });
    expect(await ws.run(listDirectoryTool, { path: 'empty' })).toEqual({ status: 'ok', content: '[empty is empty]' });
    expect((await ws.run(listDirectoryTool, { path: '.', recursive: 'yes' })).status).toBe('error');
  });

  it('is read-only', () => {
    expect(listDirectoryTool.readOnly).toBe(true);
    expect(listDirectoryTool.summarize?.({ path: 'src' })).toBe('src');
  });
});

describe('list_directory and deny_read', () => {
  it('leaves denied entries out and says so once', async () => {
    const ws = workspace();
    await ws.write('.env', 'TOKEN=sk-test-0x\n');
    await ws.write('src/a.ts', '');
    const files = await ws.denyRead(['.env']);
    expect(await ws.run(listDirectoryTool, { path: '.' }, { files })).toEqual({
      status: 'ok',
      content: 'src/\n[entries the sandbox hides (its deny list and credential folders) are left out]',
    });
  });
});
