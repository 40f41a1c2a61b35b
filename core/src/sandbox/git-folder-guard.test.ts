import { mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitFolderLinkError, guardGitFolder } from './git-folder-guard.js';

const made: string[] = [];
afterEach(async () => {
  for (const folder of made.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** An index with no entries (version 2), then `tag`, where git keeps extensions and its checksum. */
const index = (tag: string): Buffer =>
  Buffer.concat([Buffer.from('DIRC'), Buffer.from([0, 0, 0, 2, 0, 0, 0, 0]), Buffer.from(tag)]);

/** A workspace whose `.git` has what `git init` and one commit leave, by hand. */
async function workspace(): Promise<{ ws: string; git: string }> {
  const ws = await realpath(await mkdtemp(join(tmpdir(), 'cw-guard-test-')));
  made.push(ws);
  const git = join(ws, '.git');
  for (const folder of ['objects', 'refs/heads', 'hooks', 'info']) await mkdir(join(git, folder), { recursive: true });
  await writeFile(join(git, 'HEAD'), 'ref: refs/heads/main\n');
  await writeFile(join(git, 'config'), '[core]\n');
  await writeFile(join(git, 'index'), index('INDEX-1'));
  await writeFile(join(git, 'ORIG_HEAD'), 'abc\n');
  return { ws, git };
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('guardGitFolder under bubblewrap', () => {
  it('binds a staging folder over .git, the real parts back over it: config and hooks read-only, objects, refs and logs writable', async () => {
    const { ws, git } = await workspace();
    const guard = await guardGitFolder(ws, 'bubblewrap');
    const [staging, ...rest] = guard.rules.mounts;
    expect(staging?.target).toBe(git);
    expect(staging?.writable).toBe(true);
    expect(staging?.source.startsWith(ws)).toBe(false);
    const mode = Object.fromEntries(rest.map((mount) => [mount.target.slice(git.length + 1), mount.writable]));
    expect(mode).toEqual({ objects: true, refs: true, logs: true, hooks: false, info: false, config: false });
    for (const mount of rest) expect(mount.source).toBe(mount.target);
    // The commit's files are copies in staging, not mounts: git replaces them by renaming a lock over them.
    expect(await readFile(join(staging?.source ?? '', 'index'))).toEqual(index('INDEX-1'));
    expect(await exists(join(git, 'logs'))).toBe(true);
    await guard.release();
    expect(await exists(staging?.source ?? '')).toBe(false);
  });

  it('brings back what a commit changed, drops every other name, and a second release changes nothing', async () => {
    const { ws, git } = await workspace();
    const guard = await guardGitFolder(ws, 'bubblewrap');
    const staging = guard.rules.mounts[0]?.source ?? '';
    await writeFile(join(staging, 'index.lock'), index('INDEX-2'));
    await rm(join(staging, 'index'));
    await writeFile(join(staging, 'index'), index('INDEX-2'));
    await writeFile(join(staging, 'COMMIT_EDITMSG'), 'two\n');
    await unlink(join(staging, 'ORIG_HEAD'));
    await unlink(join(staging, 'HEAD'));
    await symlink('/etc/passwd', join(staging, 'HEAD'));
    await writeFile(join(staging, 'commondir'), '../planted\n');
    await writeFile(join(staging, 'config.worktree'), '[core]\n\tfsmonitor = x\n');
    await mkdir(join(staging, 'modules', 'x'), { recursive: true });
    await writeFile(join(staging, 'modules', 'x', 'config'), '[core]\n\tfsmonitor = x\n');
    await guard.release();
    expect(await readFile(join(git, 'index'))).toEqual(index('INDEX-2'));
    expect(await readFile(join(git, 'COMMIT_EDITMSG'), 'utf8')).toBe('two\n');
    expect(await exists(join(git, 'ORIG_HEAD'))).toBe(false);
    // A link in a commit file's place stays behind.
    expect(await readFile(join(git, 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect((await readdir(git)).sort()).toEqual(
      ['COMMIT_EDITMSG', 'HEAD', 'config', 'hooks', 'index', 'info', 'logs', 'objects', 'refs'].sort(),
    );
    await guard.release();
    expect(await readFile(join(git, 'index'))).toEqual(index('INDEX-2'));
  });

  it('does not bring back an index that is not one, or that adds a submodule', async () => {
    const { ws, git } = await workspace();
    const garbled = await guardGitFolder(ws, 'bubblewrap');
    await writeFile(join(garbled.rules.mounts[0]?.source ?? '', 'index'), 'not an index');
    await garbled.release();
    expect(await readFile(join(git, 'index'))).toEqual(index('INDEX-1'));
    // One entry, mode 160000 (a gitlink), path `sub`: 62 bytes of header, the path, NUL padding to 72.
    const entry = Buffer.alloc(72);
    entry.writeUInt32BE(0o160000, 24);
    entry.writeUInt16BE(3, 60);
    entry.write('sub', 62, 'latin1');
    const withLink = Buffer.concat([Buffer.from('DIRC'), Buffer.from([0, 0, 0, 2, 0, 0, 0, 1]), entry]);
    const adding = await guardGitFolder(ws, 'bubblewrap');
    await writeFile(join(adding.rules.mounts[0]?.source ?? '', 'index'), withLink);
    await adding.release();
    expect(await readFile(join(git, 'index'))).toEqual(index('INDEX-1'));
    // Once the user's own index lists it, an index that keeps it comes back.
    await writeFile(join(git, 'index'), withLink);
    const keeping = await guardGitFolder(ws, 'bubblewrap');
    const changed = Buffer.concat([withLink, Buffer.from('CHANGED')]);
    await writeFile(join(keeping.rules.mounts[0]?.source ?? '', 'index'), changed);
    await keeping.release();
    expect(await readFile(join(git, 'index'))).toEqual(changed);
  });

  it('leaves a file the command did not touch alone, so a git outside that changed it meanwhile wins', async () => {
    const { ws, git } = await workspace();
    const guard = await guardGitFolder(ws, 'bubblewrap');
    await writeFile(join(git, 'index'), index('INDEX-OUTSIDE'));
    await guard.release();
    expect(await readFile(join(git, 'index'))).toEqual(index('INDEX-OUTSIDE'));
  });

  it('holds a read-only .git where a submodule is not checked out, and makes nothing through a link', async () => {
    const { ws, git } = await workspace();
    const entry = Buffer.alloc(80);
    entry.writeUInt32BE(0o160000, 24);
    entry.writeUInt16BE(8, 60);
    entry.write('sub/deep', 62, 'latin1');
    await writeFile(
      join(git, 'index'),
      Buffer.concat([Buffer.from('DIRC'), Buffer.from([0, 0, 0, 2, 0, 0, 0, 1]), entry]),
    );
    const guard = await guardGitFolder(ws, 'bubblewrap');
    const target = join(ws, 'sub', 'deep', '.git');
    expect(guard.rules.mounts).toContainEqual({ source: target, target, writable: false });
    expect(await readdir(target)).toEqual([]);
    await guard.release();
    expect(await exists(join(ws, 'sub'))).toBe(false);

    const elsewhere = await realpath(await mkdtemp(join(tmpdir(), 'cw-guard-test-')));
    made.push(elsewhere);
    await symlink(elsewhere, join(ws, 'sub'));
    const linked = await guardGitFolder(ws, 'bubblewrap');
    expect(linked.rules.mounts.some((mount) => mount.target.startsWith(join(ws, 'sub')))).toBe(false);
    expect(await readdir(elsewhere)).toEqual([]);
    await linked.release();
  });

  it('where there is no repository, makes an empty read-only .git and removes it after the last command using it', async () => {
    const ws = await realpath(await mkdtemp(join(tmpdir(), 'cw-guard-test-')));
    made.push(ws);
    const git = join(ws, '.git');
    const first = await guardGitFolder(ws, 'bubblewrap');
    const second = await guardGitFolder(ws, 'bubblewrap');
    for (const guard of [first, second])
      expect(guard.rules.mounts).toEqual([{ source: git, target: git, writable: false }]);
    expect(await readdir(git)).toEqual([]);
    await first.release();
    await first.release();
    expect(await exists(git)).toBe(true);
    await second.release();
    expect(await exists(git)).toBe(false);
  });

  it('keeps a .git file and the git folder it names inside the workspace read-only, and refuses a .git link', async () => {
    const ws = await realpath(await mkdtemp(join(tmpdir(), 'cw-guard-test-')));
    made.push(ws);
    await mkdir(join(ws, 'store'));
    await writeFile(join(ws, '.git'), 'gitdir: store\n');
    const guard = await guardGitFolder(ws, 'bubblewrap');
    expect(guard.rules.mounts).toEqual([
      { source: join(ws, '.git'), target: join(ws, '.git'), writable: false },
      { source: join(ws, 'store'), target: join(ws, 'store'), writable: false },
    ]);
    await rm(join(ws, '.git'));
    await symlink('store', join(ws, '.git'));
    await expect(guardGitFolder(ws, 'bubblewrap')).rejects.toThrow(GitFolderLinkError);
  });
});

describe('guardGitFolder under sandbox-exec', () => {
  it('mounts nothing and makes nothing: the profile denies .git and allows back what a commit writes', async () => {
    const { ws, git } = await workspace();
    expect((await guardGitFolder(ws, 'sandbox-exec')).rules).toEqual({
      mounts: [],
      readOnly: [git],
      commitFolder: git,
    });
    const bare = await realpath(await mkdtemp(join(tmpdir(), 'cw-guard-test-')));
    made.push(bare);
    const none = await guardGitFolder(bare, 'sandbox-exec');
    expect(none.rules).toMatchObject({ readOnly: [join(bare, '.git')], commitFolder: null });
    expect(await exists(join(bare, '.git'))).toBe(false);
  });
});
