import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { truncateUtf8 } from './prompt-layer.js';
import { TurnDateError, gitBranch, turnContextLayer, turnDate } from './turn-context.js';

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

describe('turnContextLayer', () => {
  it('names the working folder relative to the workspace', async () => {
    const ws = await folder();
    const layer = await turnContextLayer({ workspace: ws, cwd: join(ws, 'a', 'b'), env: { CW_DATE: '2026-01-02' } });
    expect(layer.text).toBe(
      '\n<turn-context>\nworking folder: a/b\ngit branch: (none)\ndate: 2026-01-02\n</turn-context>\n',
    );
    const outside = await turnContextLayer({ workspace: join(ws, 'x'), cwd: ws, env: { CW_DATE: '2026-01-02' } });
    expect(outside.text).toContain('working folder: (outside the workspace)\n');
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
