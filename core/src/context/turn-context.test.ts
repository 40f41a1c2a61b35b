import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { gitDirtyState } from './git-dirty-state.js';
import { truncateUtf8 } from './prompt-layer.js';
import { TurnDateError, gitBranch, turnContextBlock, turnDate, workingFolder } from './turn-context.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});
async function folder(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), 'cw-turn-'));
  folders.push(made);
  return made;
}

describe('turnDate', () => {
  it('takes CW_DATE when it is a calendar date, else the local date', () => {
    expect(turnDate({ CW_DATE: '2024-02-29' }, new Date(0))).toBe('2024-02-29');
    expect(turnDate({}, new Date(2025, 0, 9, 12))).toBe('2025-01-09');
    for (const bad of ['2023-02-29', '2024-13-01', '24-01-01', '2024-1-1', 'today'])
      expect(() => turnDate({ CW_DATE: bad }, new Date(0)), bad).toThrow(TurnDateError);
  });
});

describe('gitBranch', () => {
  it('reads the branch from HEAD, through a worktree pointer, and says detached or null', async () => {
    const repo = await folder();
    expect(await gitBranch(repo)).toBeNull();
    await mkdir(join(repo, '.git'));
    await writeFile(join(repo, '.git', 'HEAD'), 'ref: refs/heads/topic/one\n');
    expect(await gitBranch(repo)).toBe('topic/one');
    await writeFile(join(repo, '.git', 'HEAD'), `${'a'.repeat(40)}\n`);
    expect(await gitBranch(repo)).toBe('(detached)');

    const worktree = await folder();
    const gitDir = join(repo, '.git', 'worktrees', 'w');
    await mkdir(gitDir, { recursive: true });
    await writeFile(join(gitDir, 'HEAD'), 'ref: refs/heads/side<x>\n');
    await writeFile(join(worktree, '.git'), `gitdir: ${gitDir}\n`);
    expect(await gitBranch(worktree)).toBe('side_x_');
  });
});

describe('turnContextBlock', () => {
  it('names the workspace folder and the path inside it, the branch, the OS and the date, and nothing above the workspace', async () => {
    const ws = await folder();
    const block = await turnContextBlock({
      workspace: ws,
      cwd: join(ws, 'a', 'b'),
      env: { CW_DATE: '2026-01-02' },
      platform: 'darwin',
    });
    expect(block).toBe(
      `<turn-context>\nworking folder: ${basename(ws)}/a/b\ngit branch: (none)\nos: darwin\ndate: 2026-01-02\n</turn-context>\n\n`,
    );
    expect(block).not.toContain(dirname(ws));
    const outside = await turnContextBlock({ workspace: join(ws, 'x'), cwd: ws, env: { CW_DATE: '2026-01-02' } });
    expect(outside).toContain('working folder: (outside the workspace x)\n');
    expect(outside).not.toContain(ws);
  });

  it('never holds an absolute path, whatever the folders are called', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1, maxLength: 8 }).filter((name) => !/[/\\\0]|^\.\.?$|home-of/.test(name)),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        fc.array(
          fc.string({ minLength: 1, maxLength: 8 }).filter((name) => !/[/\\\0]|^\.\.?$|home-of/.test(name)),
          {
            maxLength: 3,
          },
        ),
        (above, inside) => {
          const workspace = join(sep, 'home-of-someone', ...above);
          const shown = workingFolder(workspace, join(workspace, ...inside));
          expect(shown.startsWith('/')).toBe(false);
          expect(shown).not.toContain('home-of-someone');
          expect(shown).not.toMatch(/[\u0000-\u001f<>]/);
        },
      ),
    );
  });
});

describe('gitDirtyState', () => {
  const hasGit = spawnSync('git', ['--version']).status === 0;
  const git = (cwd: string, ...args: string[]): void => {
    const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd });
    if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed`);
  };

  it.skipIf(!hasGit)('says clean, then dirty for a changed or a staged file, and writes nothing to git', async () => {
    const repo = await folder();
    git(repo, 'init', '-q', '-b', 'main');
    await writeFile(join(repo, 'a.txt'), 'one\n');
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-q', '-m', 'first');
    // Untracked files are not looked at: that is what makes a big tree slow.
    await writeFile(join(repo, 'untracked.txt'), 'x\n');
    expect(await gitDirtyState(repo)).toBe('clean');
    await writeFile(join(repo, 'a.txt'), 'two\n');
    const index = await stat(join(repo, '.git', 'index'));
    expect(await gitDirtyState(repo)).toBe('dirty');
    // No index refresh written: a preview stays read-only.
    expect((await stat(join(repo, '.git', 'index'))).mtimeMs).toBe(index.mtimeMs);
    git(repo, 'add', 'a.txt');
    expect(await gitDirtyState(repo)).toBe('dirty');
    expect(await turnContextBlock({ workspace: repo, cwd: repo, env: { CW_DATE: '2026-01-02' } })).toContain(
      'git branch: main (uncommitted changes)\n',
    );
  });

  it.skipIf(!hasGit)('says unknown past its time bound, and for a folder that is not a repository', async () => {
    const repo = await folder();
    git(repo, 'init', '-q', '-b', 'main');
    await writeFile(join(repo, 'a.txt'), 'one\n');
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-q', '-m', 'first');
    expect(await gitDirtyState(repo)).toBe('clean');
    expect(await gitDirtyState(repo, { timeoutMs: -1 })).toBe('unknown');
    expect(await gitDirtyState(await folder())).toBe('unknown');
  });
});

describe('truncateUtf8', () => {
  it('cuts on a character boundary and says whether it cut', () => {
    expect(truncateUtf8('abc', 3)).toEqual({ text: 'abc', truncated: false });
    expect(truncateUtf8('aé', 2)).toEqual({ text: 'a', truncated: true });
    expect(truncateUtf8('a😀b', 4)).toEqual({ text: 'a', truncated: true });
    expect(truncateUtf8('a😀b', 5)).toEqual({ text: 'a😀', truncated: true });
  });
});
