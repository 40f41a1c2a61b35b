import { mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GIT_WRITE_REFUSAL } from './git-write-rules.js';
import {
  CHANGED,
  childOf,
  LEADS_OUT,
  listOpened,
  openBeneath,
  replaceOpened,
  WorkspaceAccessError,
} from './open-beneath-workspace.js';

let base = '';
let root = '';
let outside = '';
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cw-beneath-')));
  root = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(join(root, 'd'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'd', 't'), 'inside\n');
  await writeFile(join(outside, 't'), 'outside\n');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refusalOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof WorkspaceAccessError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error.refusal;
}

describe('openBeneath', () => {
  it('follows a link that stays inside and refuses one that leads out, judged on the descriptor', async () => {
    await symlink(join(root, 'd', 't'), join(root, 'inside-link'));
    await symlink(join(outside, 't'), join(root, 'outside-link'));
    const opened = await openBeneath(root, join(root, 'inside-link'));
    expect(opened.real).toBe(join(root, 'd', 't'));
    expect((await opened.handle.readFile()).toString()).toBe('inside\n');
    await opened.handle.close();
    expect(await refusalOf(openBeneath(root, join(root, 'outside-link')))).toBe(LEADS_OUT);
  });

  it('refuses a hidden path by its label, and a link as the last step under noFollow', async () => {
    const hidden = [{ path: join(root, 'd'), label: 'deny_read entry 1' }];
    expect(await refusalOf(openBeneath(root, join(root, 'd', 't'), { hidden }))).toBe(
      "refused: deny_read entry 1 is hidden from cw's tools and commands",
    );
    await symlink(join(root, 'd'), join(root, 'link'));
    await expect(openBeneath(root, join(root, 'link'), { noFollow: true })).rejects.toMatchObject({ code: 'ELOOP' });
  });

  it('names children through the folder held open, so a folder swapped for a link afterwards is not followed', async () => {
    const folder = await openBeneath(root, join(root, 'd'), { directory: true });
    await rename(join(root, 'd'), join(root, 'd.moved'));
    await symlink(outside, join(root, 'd'));
    const child = await openBeneath(root, childOf(folder, 't'), { noFollow: true });
    expect((await child.handle.readFile()).toString()).toBe('inside\n');
    expect((await listOpened(folder)).entries.map((entry) => entry.name)).toEqual(['t']);
    await child.handle.close();
    await folder.handle.close();
  });
});

describe('replaceOpened', () => {
  it('replaces the file inside its own folder, keeping no temporary file', async () => {
    const file = await openBeneath(root, join(root, 'd', 't'));
    await replaceOpened(root, file, 'new\n');
    await file.handle.close();
    expect(await readFile(join(root, 'd', 't'), 'utf8')).toBe('new\n');
    expect(await readdir(join(root, 'd'))).toEqual(['t']);
  });

  it('refuses, writing nothing, when the parent became a link out after the file was opened', async () => {
    const file = await openBeneath(root, join(root, 'd', 't'));
    await rename(join(root, 'd'), join(root, 'd.moved'));
    await symlink(outside, join(root, 'd'));
    expect(await refusalOf(replaceOpened(root, file, 'planted\n'))).toBe(LEADS_OUT);
    await file.handle.close();
    expect(await readFile(join(outside, 't'), 'utf8')).toBe('outside\n');
    expect(await readdir(outside)).toEqual(['t']);
  });

  it('refuses, writing nothing, when the entry is no longer the file that was opened', async () => {
    const file = await openBeneath(root, join(root, 'd', 't'));
    await rename(join(root, 'd', 't'), join(root, 'd', 'old'));
    await writeFile(join(root, 'd', 't'), 'someone else\n');
    expect(await refusalOf(replaceOpened(root, file, 'mine\n'))).toBe(CHANGED);
    await file.handle.close();
    expect(await readFile(join(root, 'd', 't'), 'utf8')).toBe('someone else\n');
  });

  it('refuses a git config by its real path, and writes what a commit writes', async () => {
    await mkdir(join(root, '.git'));
    await writeFile(join(root, '.git', 'config'), '[core]\n');
    await writeFile(join(root, '.git', 'COMMIT_EDITMSG'), 'wip\n');
    await symlink(join(root, '.git'), join(root, 'g'));
    const config = await openBeneath(root, join(root, 'g', 'config'));
    expect(await refusalOf(replaceOpened(root, config, '[core]\n\thooksPath = /tmp\n'))).toBe(GIT_WRITE_REFUSAL);
    await config.handle.close();
    expect(await readFile(join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    const message = await openBeneath(root, join(root, '.git', 'COMMIT_EDITMSG'));
    await replaceOpened(root, message, 'Fix the parser\n');
    await message.handle.close();
    expect(await readFile(join(root, '.git', 'COMMIT_EDITMSG'), 'utf8')).toBe('Fix the parser\n');
  });
});
