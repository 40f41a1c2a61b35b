import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceError, workspaceRoot } from './workspace-root.js';

describe('workspaceRoot', () => {
  const folders: string[] = [];
  const folder = async (): Promise<string> => {
    const made = await realpath(await mkdtemp(join(tmpdir(), 'cw-ws-')));
    folders.push(made);
    return made;
  };
  afterAll(async () => Promise.all(folders.map((made) => rm(made, { recursive: true, force: true }))));

  it('finds the git root above the current folder (a .git folder or file)', async () => {
    const root = await folder();
    await mkdir(join(root, '.git'));
    await mkdir(join(root, 'src', 'deep'), { recursive: true });
    expect(await workspaceRoot(undefined, join(root, 'src', 'deep'))).toBe(root);
    const worktree = await folder();
    await writeFile(join(worktree, '.git'), 'gitdir: elsewhere\n');
    await mkdir(join(worktree, 'lib'));
    expect(await workspaceRoot(undefined, join(worktree, 'lib'))).toBe(worktree);
  });

  it('is the current folder outside a git repository, and the configured folder when there is one', async () => {
    const plain = await folder();
    expect(await workspaceRoot(undefined, plain)).toBe(plain);
    await mkdir(join(plain, 'project'));
    expect(await workspaceRoot('project', plain)).toBe(join(plain, 'project'));
    await expect(workspaceRoot('missing', plain)).rejects.toBeInstanceOf(WorkspaceError);
  });
});
