import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveInWorkspace } from './resolve-in-workspace.js';
import { useTempWorkspace } from './workspace-fixture.js';

const workspace = useTempWorkspace();

describe('resolveInWorkspace', () => {
  it('resolves a workspace-relative path to its real path and a display path', async () => {
    const ws = workspace();
    await ws.write('src/a.ts', 'x');
    const resolved = await resolveInWorkspace(ws.root, 'src/./a.ts');
    expect(resolved).toEqual({
      ok: true,
      path: { root: ws.root, real: path.join(ws.root, 'src', 'a.ts'), display: 'src/a.ts', exists: true },
    });
    const rootItself = await resolveInWorkspace(ws.root, '.');
    expect(rootItself.ok && rootItself.path.display).toBe('.');
  });

  it('judges a file that does not exist yet by its nearest existing parent', async () => {
    const ws = workspace();
    const resolved = await resolveInWorkspace(ws.root, 'new/deeper/file.txt');
    expect(resolved).toEqual({
      ok: true,
      path: {
        root: ws.root,
        real: path.join(ws.root, 'new/deeper/file.txt'),
        display: 'new/deeper/file.txt',
        exists: false,
      },
    });
  });

  it('refuses .. escapes and absolute paths outside, without echoing a machine path', async () => {
    const ws = workspace();
    for (const requested of ['../x', '../outside', 'src/../../x', '/etc/passwd', ws.outside]) {
      const resolved = await resolveInWorkspace(ws.root, requested);
      expect(resolved.ok).toBe(false);
      if (resolved.ok) continue;
      expect(resolved.error).toContain('path is outside the workspace');
      expect(resolved.error).not.toContain(ws.root);
      expect(resolved.error).not.toContain('/etc');
      expect(resolved.error).not.toContain(path.dirname(ws.root));
    }
  });

  it('accepts an absolute path inside the workspace', async () => {
    const ws = workspace();
    await ws.write('a.txt', 'x');
    const resolved = await resolveInWorkspace(ws.root, path.join(ws.root, 'a.txt'));
    expect(resolved.ok && resolved.path.display).toBe('a.txt');
  });

  it('refuses a symbolic link to a folder outside, and a new file beneath it', async () => {
    const ws = workspace();
    await symlink(ws.outside, path.join(ws.root, 'escape'));
    for (const requested of ['escape', 'escape/secret.txt', 'escape/new/file.txt']) {
      const resolved = await resolveInWorkspace(ws.root, requested);
      expect(resolved.ok).toBe(false);
      if (resolved.ok) continue;
      expect(resolved.error).toContain('path is outside the workspace');
      expect(resolved.error).not.toContain(ws.outside);
    }
  });

  it('follows a symbolic link inside that points inside', async () => {
    const ws = workspace();
    await ws.write('real/a.txt', 'x');
    await symlink(path.join(ws.root, 'real'), path.join(ws.root, 'alias'));
    const resolved = await resolveInWorkspace(ws.root, 'alias/a.txt');
    expect(resolved).toEqual({
      ok: true,
      path: { root: ws.root, real: path.join(ws.root, 'real', 'a.txt'), display: 'alias/a.txt', exists: true },
    });
  });

  it('refuses a broken symbolic link, whose target is unknown ground', async () => {
    const ws = workspace();
    await symlink(path.join(ws.outside, 'nothing-yet'), path.join(ws.root, 'dangling'));
    const resolved = await resolveInWorkspace(ws.root, 'dangling');
    expect(resolved).toEqual({ ok: false, error: 'dangling: goes through a broken symbolic link' });
  });

  it('reports a file used as a folder and a NUL in the path', async () => {
    const ws = workspace();
    await ws.write('file.txt', 'x');
    expect(await resolveInWorkspace(ws.root, 'file.txt/inner')).toEqual({
      ok: false,
      error: 'file.txt/inner: a component of the path is not a directory',
    });
    expect(await resolveInWorkspace(ws.root, 'a\0b')).toEqual({ ok: false, error: 'path contains a NUL character' });
  });

  it('refuses when the workspace itself is gone', async () => {
    const ws = workspace();
    const missing = path.join(ws.root, 'missing-root');
    expect(await resolveInWorkspace(missing, 'a')).toEqual({
      ok: false,
      error: 'the workspace folder is not accessible',
    });
    await mkdir(missing);
    expect((await resolveInWorkspace(missing, 'a')).ok).toBe(true);
  });
});
