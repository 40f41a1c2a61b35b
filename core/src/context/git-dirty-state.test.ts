import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { testGit } from '../../../test/support/test-git.js';
import { gitDirtyState } from './git-dirty-state.js';
import { isWorkTreePath } from './git-index-file.js';

const hasGit = spawnSync('git', ['--version']).status === 0;
const folders: string[] = [];
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'cw-git-state-'));
  folders.push(made);
  return made;
}

const git = testGit;
function gitSays(cwd: string): 'clean' | 'dirty' {
  return git(cwd, 'status', '--porcelain', '--untracked-files=no', '--ignore-submodules=all') === ''
    ? 'clean'
    : 'dirty';
}
function write(repo: string, path: string, text: string): void {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), text);
}
function committed(files: Record<string, string>): string {
  const repo = folder();
  git(repo, 'init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(files)) write(repo, path, text);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
  return repo;
}

// Each case builds a real repository with git and says where cw should look; cw's answer must be git's.
const cases: { name: string; expected: 'clean' | 'dirty'; make: () => string }[] = [
  { name: 'clean', expected: 'clean', make: () => committed({ 'a.txt': 'one\n', 'src/b.ts': 'b\n' }) },
  {
    name: 'modified, same size',
    expected: 'dirty',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n' });
      write(repo, 'a.txt', 'two\n');
      return repo;
    },
  },
  {
    name: 'modified in a subfolder, other size',
    expected: 'dirty',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n', 'src/deep/b.ts': 'b\n' });
      write(repo, 'src/deep/b.ts', 'bbb\n');
      return repo;
    },
  },
  {
    name: 'touched, same bytes',
    expected: 'clean',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n' });
      utimesSync(join(repo, 'a.txt'), new Date(), new Date(Date.now() + 5000));
      return repo;
    },
  },
  {
    name: 'staged only',
    expected: 'dirty',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n' });
      write(repo, 'a.txt', 'two\n');
      git(repo, 'add', 'a.txt');
      return repo;
    },
  },
  {
    name: 'a new file staged',
    expected: 'dirty',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n' });
      write(repo, 'new.txt', 'new\n');
      git(repo, 'add', 'new.txt');
      return repo;
    },
  },
  {
    name: 'untracked files only',
    expected: 'clean',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n' });
      write(repo, 'untracked.txt', 'x\n');
      return repo;
    },
  },
  {
    name: 'deleted in the work tree',
    expected: 'dirty',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
      rmSync(join(repo, 'b.txt'));
      return repo;
    },
  },
  {
    name: 'deleted and staged',
    expected: 'dirty',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
      git(repo, 'rm', '-q', 'b.txt');
      return repo;
    },
  },
  {
    name: 'made executable',
    expected: 'dirty',
    make: () => {
      const repo = committed({ 'run.sh': 'echo\n' });
      chmodSync(join(repo, 'run.sh'), 0o755);
      return repo;
    },
  },
  {
    name: 'made executable where core.filemode is false',
    expected: 'clean',
    make: () => {
      const repo = committed({ 'run.sh': 'echo\n' });
      git(repo, 'config', 'core.filemode', 'false');
      chmodSync(join(repo, 'run.sh'), 0o755);
      return repo;
    },
  },
  {
    name: 'a tracked link, unchanged',
    expected: 'clean',
    make: () => {
      const repo = folder();
      git(repo, 'init', '-q', '-b', 'main');
      write(repo, 'a.txt', 'one\n');
      symlinkSync('a.txt', join(repo, 'link'));
      git(repo, 'add', '-A');
      git(repo, 'commit', '-q', '-m', 'first');
      return repo;
    },
  },
  {
    name: 'a tracked folder replaced by a link',
    expected: 'dirty',
    make: () => {
      const repo = committed({ 'src/b.ts': 'b\n' });
      const elsewhere = folder();
      write(elsewhere, 'b.ts', 'b\n');
      rmSync(join(repo, 'src'), { recursive: true });
      symlinkSync(elsewhere, join(repo, 'src'));
      return repo;
    },
  },
  {
    name: 'detached HEAD',
    expected: 'clean',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n' });
      git(repo, 'checkout', '-q', '--detach');
      return repo;
    },
  },
  {
    name: 'packed refs',
    expected: 'clean',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n' });
      git(repo, 'pack-refs', '--all');
      return repo;
    },
  },
  {
    name: 'after gc, objects packed with deltas, then a change',
    expected: 'dirty',
    make: () => gcRepository(true),
  },
  { name: 'after gc, objects packed with deltas', expected: 'clean', make: () => gcRepository(false) },
  {
    // Staging a change and staging it back leaves the index's cached root tree invalid, so HEAD's
    // packed trees are read and compared entry by entry.
    name: 'after gc, a change staged and staged back',
    expected: 'clean',
    make: () => {
      const repo = gcRepository(false);
      const text = git(repo, 'show', 'HEAD:src/deep/c.txt');
      write(repo, 'src/deep/c.txt', 'changed\n');
      git(repo, 'add', '-A');
      write(repo, 'src/deep/c.txt', text);
      git(repo, 'add', '-A');
      return repo;
    },
  },
  {
    name: 'after gc, a staged change in a deep folder',
    expected: 'dirty',
    make: () => {
      const repo = gcRepository(false);
      write(repo, 'src/deep/c.txt', 'changed\n');
      git(repo, 'add', '-A');
      return repo;
    },
  },
  {
    name: 'a linked worktree (a .git file), changed',
    expected: 'dirty',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n' });
      const tree = join(folder(), 'tree');
      git(repo, 'worktree', 'add', '-q', '-b', 'side', tree);
      write(tree, 'a.txt', 'other\n');
      return tree;
    },
  },
  {
    name: 'a linked worktree (a .git file), clean',
    expected: 'clean',
    make: () => {
      const repo = committed({ 'a.txt': 'one\n' });
      git(repo, 'gc', '-q');
      const tree = join(folder(), 'tree');
      git(repo, 'worktree', 'add', '-q', '-b', 'side', tree);
      return tree;
    },
  },
  {
    name: 'an empty repository',
    expected: 'clean',
    make: () => {
      const repo = folder();
      git(repo, 'init', '-q', '-b', 'main');
      write(repo, 'untracked.txt', 'x\n');
      return repo;
    },
  },
  {
    name: 'an empty repository with a file staged',
    expected: 'dirty',
    make: () => {
      const repo = folder();
      git(repo, 'init', '-q', '-b', 'main');
      write(repo, 'a.txt', 'x\n');
      git(repo, 'add', 'a.txt');
      return repo;
    },
  },
];

// Several commits of files that differ a little, so `git gc` stores most of them as deltas.
function gcRepository(change: boolean): string {
  const repo = folder();
  git(repo, 'init', '-q', '-b', 'main');
  const lines = Array.from({ length: 200 }, (_, line) => `line ${line}\n`);
  for (let round = 0; round < 6; round += 1) {
    lines[round * 7] = `changed in round ${round}\n`;
    for (const name of ['a.txt', 'src/b.txt', 'src/deep/c.txt']) write(repo, name, `${name}\n${lines.join('')}`);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', `round ${round}`);
  }
  git(repo, 'gc', '-q', '--aggressive');
  if (change) write(repo, 'src/deep/c.txt', 'changed\n');
  return repo;
}

describe.skipIf(!hasGit)('gitDirtyState against git status', () => {
  it.each(cases)('$name', async ({ make, expected }) => {
    const repo = make();
    // cw first: git status refreshes the index's stat data, cw must not need that.
    const before = await gitDirtyState(repo);
    expect(gitSays(repo)).toBe(expected);
    expect(before).toBe(expected);
    expect(await gitDirtyState(repo)).toBe(expected);
  });

  it('never looks outside the work tree for a path a planted index names there', async () => {
    const outside = folder();
    writeFileSync(join(outside, 'secret.txt'), 'the same bytes\n');
    const repo = join(outside, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    write(repo, 'ab/secret.txt', 'the same bytes\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'first');
    // The model may write .git/index (a commit in the sandbox does): the entry now names a file one
    // folder up, whose bytes are the committed blob's. Read through it, the tree would look clean.
    const indexPath = join(repo, '.git', 'index');
    const bytes = readFileSync(indexPath);
    const at = bytes.indexOf('ab/secret.txt');
    bytes.write('../secret.txt', at, 'latin1');
    writeFileSync(indexPath, bytes);
    rmSync(join(repo, 'ab'), { recursive: true });
    expect(await gitDirtyState(repo)).toBe('unknown');
  });

  it('reads a pack whose objects are deltas of one another', () => {
    const repo = gcRepository(false);
    const verified = git(repo, 'verify-pack', '-v', ...packIndexes(repo));
    expect(verified).toMatch(/chain length = [1-9]/);
  });

  it('says unknown for what it does not read: index version 4, SHA-256 objects, a missing object, a bare HEAD', async () => {
    const v4 = committed({ 'a.txt': 'one\n' });
    git(v4, 'update-index', '--index-version', '4');
    expect(await gitDirtyState(v4)).toBe('unknown');
    const sha256 = folder();
    git(sha256, 'init', '-q', '--object-format=sha256');
    expect(await gitDirtyState(sha256)).toBe('unknown');
    const broken = committed({ 'a.txt': 'one\n' });
    rmSync(join(broken, '.git', 'objects'), { recursive: true });
    mkdirSync(join(broken, '.git', 'objects'));
    expect(await gitDirtyState(broken)).toBe('unknown');
    // A .git folder with a HEAD and nothing else is not a repository to git either.
    const headOnly = folder();
    mkdirSync(join(headOnly, '.git'));
    writeFileSync(join(headOnly, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect(await gitDirtyState(headOnly)).toBe('unknown');
  });

  it('agrees with git status after any sequence of writes, adds, removals and commits', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), file: fc.constantFrom('a', 'b', 'd/c'), text: fc.string() }),
      fc.record({ kind: fc.constantFrom('add' as const, 'remove' as const, 'commit' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 6 }), async (steps) => {
        const repo = committed({ a: 'a\n', 'd/c': 'c\n' });
        for (const move of steps) {
          if (move.kind === 'write') write(repo, move.file, move.text);
          else if (move.kind === 'add') git(repo, 'add', '-A');
          else if (move.kind === 'remove') rmSync(join(repo, 'a'), { force: true });
          else git(repo, 'commit', '-q', '--allow-empty', '-am', 'next');
        }
        const ours = await gitDirtyState(repo);
        expect(ours).toBe(gitSays(repo));
        rmSync(repo, { recursive: true, force: true });
      }),
      { numRuns: 15 },
    );
  });
});

function packIndexes(repo: string): string[] {
  const listing = git(repo, 'count-objects', '-v');
  expect(listing).toMatch(/packs: [1-9]/);
  return spawnSync('sh', ['-c', 'ls .git/objects/pack/*.idx'], { cwd: repo, encoding: 'utf8' })
    .stdout.trim()
    .split('\n');
}

describe('isWorkTreePath', () => {
  it('takes the relative paths git writes and nothing that could leave the work tree', () => {
    for (const path of ['a.txt', 'src/deep/b.ts', '.gitignore', 'src/.hidden/x', 'a..b', '...', 'x/.../y', 'é/ü.txt'])
      expect(isWorkTreePath(path), path).toBe(true);
    for (const path of [
      '',
      '..',
      '.',
      '../a',
      'a/../../b',
      'a/..',
      './a',
      'a/./b',
      '/etc/passwd',
      'a//b',
      'a/',
      'a\\..\\b',
    ])
      expect(isWorkTreePath(path), path).toBe(false);
  });
});
