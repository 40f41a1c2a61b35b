import { describe, expect, it } from 'vitest';
import { isProtectedGitPath } from './git-write-rules.js';

describe('isProtectedGitPath', () => {
  it('leaves what a commit writes writable', () => {
    for (const path of [
      '.git/objects/ab/cdef',
      '.git/refs/heads/main',
      '.git/refs/heads/main.lock',
      '.git/index',
      '.git/index.lock',
      '.git/HEAD',
      '.git/logs/HEAD',
      '.git/COMMIT_EDITMSG',
      'sub/.git/ORIG_HEAD',
    ])
      expect(isProtectedGitPath(path), path).toBe(false);
  });

  it('protects config, hooks, info, links and the folder itself, at any depth and letter case', () => {
    for (const path of [
      '.git',
      '.git/config',
      '.git/hooks/pre-commit',
      '.git/info/attributes',
      '.git/commondir',
      '.git/modules/x/config',
      '.git/worktrees/w/gitdir',
      'sub/.git',
      'sub/.git/config',
      '.GIT/config',
      './.git/config',
      '.git/config.lock',
      '.git/modules/x/.git/config',
    ])
      expect(isProtectedGitPath(path), path).toBe(true);
  });

  it('leaves files outside git folders alone', () => {
    for (const path of ['src/a.ts', '.gitignore', '.github/workflows/ci.yml', 'git/config', '.gitmodules'])
      expect(isProtectedGitPath(path), path).toBe(false);
  });
});
