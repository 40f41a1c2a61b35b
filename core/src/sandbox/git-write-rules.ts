/**
 * Which parts of a repository's git folder a model may change: only what `git commit` writes. The
 * sandbox mounts everything else in `.git` read-only and the file tools refuse it with the same
 * line, so a model cannot plant a config, hook, attribute or common-dir link that the user's own
 * git later runs (docs/security.md, "The user's own git stays theirs").
 */

/** Entries directly inside a git folder that a commit writes; everything else there is read-only. */
export const GIT_COMMIT_WRITABLE = [
  'objects',
  'refs',
  'logs',
  'index',
  'HEAD',
  'ORIG_HEAD',
  'FETCH_HEAD',
  'MERGE_HEAD',
  'MERGE_MSG',
  'MERGE_MODE',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'AUTO_MERGE',
  'COMMIT_EDITMSG',
  'packed-refs',
] as const;

/** The one line a refused write into a git folder gets, wherever it was refused. */
export const GIT_WRITE_REFUSAL =
  'refused: only what a commit writes may change inside .git (its config, hooks, info and links stay read-only)';

const WRITABLE = new Set<string>(GIT_COMMIT_WRITABLE);

/** Whether a name is a lock file git takes next to a writable entry (`index.lock`, `HEAD.lock`). */
function isCommitLock(name: string): boolean {
  return name.endsWith('.lock') && WRITABLE.has(name.slice(0, -'.lock'.length));
}

/**
 * Whether a write to `relativePath` (workspace-relative, `/`-separated) would change a git folder
 * outside what a commit writes. Any `.git` segment counts, at any depth and in any letter case (a
 * nested repository is run by the user's git too, and case-insensitive file systems fold the name);
 * a path whose last segment is `.git` is the folder or gitfile itself, which is never written.
 */
export function isProtectedGitPath(relativePath: string): boolean {
  const segments = relativePath.split('/').filter((segment) => segment !== '' && segment !== '.');
  const index = segments.findIndex((segment) => segment.toLowerCase() === '.git');
  if (index === -1) return false;
  const inside = segments.slice(index + 1);
  if (inside.length === 0) return true;
  // Below a nested `.git` again (`.git/modules/x/.git`): judged from the innermost one.
  if (inside.some((segment) => segment.toLowerCase() === '.git')) return isProtectedGitPath(inside.join('/'));
  const first = inside[0] as string;
  if (inside.length === 1) return !(WRITABLE.has(first) || isCommitLock(first));
  return !WRITABLE.has(first);
}
