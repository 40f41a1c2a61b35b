import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyDelta, openObjectStore } from './git-object-store.js';
import { GitUnreadable } from './git-repository-files.js';

const hasGit = spawnSync('git', ['--version']).status === 0;
const folders: string[] = [];
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
function git(cwd: string, ...args: string[]): Buffer {
  const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, env: GIT_ENV });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed`);
  return run.stdout;
}

// Several commits of slowly changing files, some left loose and the rest packed with deltas.
function repository(offsetDeltas = true): string {
  const repo = mkdtempSync(join(tmpdir(), 'cw-git-objects-'));
  folders.push(repo);
  git(repo, 'init', '-q', '-b', 'main');
  mkdirSync(join(repo, 'src'));
  const lines = Array.from({ length: 300 }, (_, line) => `line ${line}\n`);
  for (let round = 0; round < 8; round += 1) {
    lines[round * 11] = `round ${round}\n`;
    writeFileSync(join(repo, 'a.txt'), lines.join(''));
    writeFileSync(join(repo, 'src', `f${round % 3}.txt`), lines.slice(round).join(''));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', `round ${round}`);
    if (round === 5) git(repo, '-c', `repack.useDeltaBaseOffset=${offsetDeltas}`, 'gc', '-q', '--aggressive');
  }
  return repo;
}

describe.skipIf(!hasGit)('openObjectStore', () => {
  it.each([
    { deltas: 'offset deltas', offsetDeltas: true },
    { deltas: 'ref deltas', offsetDeltas: false },
  ])('reads every object, loose or packed with $deltas, byte for byte as git cat-file', ({ offsetDeltas }) => {
    const repo = repository(offsetDeltas);
    const listing = git(repo, 'cat-file', '--batch-all-objects', '--batch-check').toString('utf8').trim().split('\n');
    const verify = git(repo, 'verify-pack', '-v', ...packIndexes(repo)).toString('utf8');
    // The pack holds deltas of both kinds git writes for trees and blobs, so they are read here.
    expect(verify).toMatch(/chain length = [1-9]/);
    const store = openObjectStore(join(repo, '.git', 'objects'));
    try {
      for (const line of listing) {
        const [id, type] = line.split(' ') as [string, string];
        const object = store.read(id);
        expect(object.type, id).toBe(type);
        expect(object.data.equals(git(repo, 'cat-file', type, id)), id).toBe(true);
      }
    } finally {
      store.close();
    }
    expect(listing.length).toBeGreaterThan(20);
  });

  it('throws GitUnreadable for a missing object or a malformed id', () => {
    const store = openObjectStore(join(repository(), '.git', 'objects'));
    expect(() => store.read('0'.repeat(40))).toThrow(GitUnreadable);
    expect(() => store.read('../../x')).toThrow(GitUnreadable);
    store.close();
  });
});

describe('applyDelta', () => {
  it('copies from the base and inserts, and refuses a delta that reaches outside its base', () => {
    const base = Buffer.from('hello world');
    // base size 11, result size 11: copy 6 bytes at 0, insert "there"
    const delta = Buffer.from([11, 11, 0x90, 6, 5, ...Buffer.from('there')]);
    expect(applyDelta(base, delta).toString()).toBe('hello there');
    expect(() => applyDelta(base, Buffer.from([11, 20, 0x91, 8, 20]))).toThrow(GitUnreadable);
    expect(() => applyDelta(base, Buffer.from([3, 1, 1, 65]))).toThrow(GitUnreadable);
  });
});

function packIndexes(repo: string): string[] {
  return spawnSync('sh', ['-c', 'ls .git/objects/pack/*.idx'], { cwd: repo, encoding: 'utf8' })
    .stdout.trim()
    .split('\n');
}
