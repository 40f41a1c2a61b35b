import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexGitlinks } from './index-gitlinks.js';

let repo = '';
const git = (...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], {
    cwd: repo,
    env: { PATH: process.env['PATH'] ?? '', HOME: repo, GIT_CONFIG_NOSYSTEM: '1' },
    encoding: 'utf8',
  });

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'cw-index-test-'));
  git('init', '-q');
  // Paths that share prefixes (version 4 compresses them), and two gitlinks among them.
  for (const path of ['a/deep/one.txt', 'a/deep/two.txt', 'b.txt']) {
    await mkdir(join(repo, path, '..'), { recursive: true });
    await writeFile(join(repo, path), path);
  }
  git('add', '.');
  git('commit', '-q', '-m', 'one');
  const commit = git('rev-parse', 'HEAD').trim();
  git('update-index', '--add', '--cacheinfo', `160000,${commit},a/deep/sub`);
  git('update-index', '--add', '--cacheinfo', `160000,${commit},zzz`);
  // An intent-to-add entry carries the extended flags word (version 3).
  await writeFile(join(repo, 'c.txt'), 'c');
  git('add', '-N', 'c.txt');
});
afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

describe('indexGitlinks', () => {
  it.each([3, 4, 2])('finds the gitlinks of an index git wrote at version %i', async (version) => {
    if (version === 2) git('rm', '-q', '--cached', 'c.txt');
    git('update-index', '--index-version', String(version));
    const bytes = await readFile(join(repo, '.git', 'index'));
    expect(bytes.readUInt32BE(4)).toBe(version);
    expect(indexGitlinks(bytes, 20)).toEqual(['a/deep/sub', 'zzz']);
  });

  it('says null for bytes that are not an index, or that end inside an entry', async () => {
    expect(indexGitlinks(Buffer.from('not an index'), 20)).toBeNull();
    const bytes = await readFile(join(repo, '.git', 'index'));
    expect(indexGitlinks(bytes.subarray(0, 40), 20)).toBeNull();
    expect(indexGitlinks(bytes, 32)).not.toEqual(['a/deep/sub', 'zzz']);
  });
});
