import { stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { gitDirtyState, type GitDirtyState } from './git-dirty-state.js';
import { readRegularFile } from './git-repository-files.js';

/** The environment variable that fixes the turn-context date (YYYY-MM-DD), for reproducible requests. */
export const TURN_DATE_ENV = 'CW_DATE';

/** A `CW_DATE` that is not a calendar date; nothing is sent. */
export class TurnDateError extends Error {
  override readonly name = 'TurnDateError';
  readonly exitCode = 1;
  readonly safeMessage = `${TURN_DATE_ENV} must be a date written YYYY-MM-DD; unset it to use today's date`;
  constructor() {
    super(`${TURN_DATE_ENV} must be a date written YYYY-MM-DD; unset it to use today's date`);
  }
}

/**
 * The turn-context block: the working folder (the workspace folder's name and the path inside it),
 * the git branch and whether the tree has uncommitted changes, the OS and the date. It leads the
 * turn's new user message and ends with the blank line that parts it from the prompt; it is never
 * in the system prompt, so it cannot move the prompt-cache prefix (docs/project-context.md).
 * Deterministic: the same folder, branch, tree state, platform and day give the same bytes.
 */
export async function turnContextBlock(options: {
  readonly workspace: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly now?: Date;
  /** The platform named on the `os` line; defaults to this process's. */
  readonly platform?: NodeJS.Platform;
}): Promise<string> {
  const date = turnDate(options.env, options.now ?? new Date());
  const branch = await gitBranch(options.workspace);
  const git = branch === null ? '(none)' : `${branch}${dirtyNote(await gitDirtyState(options.workspace))}`;
  return (
    '<turn-context>\n' +
    `working folder: ${workingFolder(options.workspace, options.cwd)}\n` +
    `git branch: ${git}\n` +
    `os: ${options.platform ?? process.platform}\n` +
    `date: ${date}\n` +
    '</turn-context>\n\n'
  );
}

function dirtyNote(state: GitDirtyState): string {
  if (state === 'dirty') return ' (uncommitted changes)';
  if (state === 'unknown') return ' (changes not known)';
  return '';
}

/**
 * The workspace folder's own name followed by the path inside it, `/`-separated: never the folders
 * above the workspace, which name the machine and its user.
 */
export function workingFolder(workspace: string, cwd: string): string {
  const rel = relative(workspace, cwd);
  const inside = rel === '' || !(rel.startsWith('..') || isAbsolute(rel));
  const name = cleanName(basename(workspace)) || '.';
  if (!inside) return `(outside the workspace ${name})`;
  return rel === '' ? name : `${name}/${cleanName(rel.split(sep).join('/'))}`;
}

/** The date of the turn: `CW_DATE` when set, else today in local time, as YYYY-MM-DD. */
export function turnDate(env: NodeJS.ProcessEnv, now: Date): string {
  const fixed = env[TURN_DATE_ENV];
  if (fixed !== undefined && fixed !== '') {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fixed);
    const parsed = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
    if (parsed === null || parsed.toISOString().slice(0, 10) !== fixed) throw new TurnDateError();
    return fixed;
  }
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The branch checked out at the workspace root, read from git's own files (no git process): null
 * when the workspace is not a repository, `(detached)` when HEAD names a commit.
 */
export async function gitBranch(workspace: string): Promise<string | null> {
  const gitDir = await gitDirOf(workspace);
  if (gitDir === null) return null;
  const head = readSmallText(join(gitDir, 'HEAD'));
  if (head === null) return null;
  const ref = /^ref:\s*refs\/heads\/(.+?)\s*$/m.exec(head);
  if (ref?.[1]) return cleanName(ref[1]);
  return '(detached)';
}

/** The git folder of a workspace root: `.git`, or where a worktree's or submodule's `.git` file points; null without one. */
export async function gitDirOf(workspace: string): Promise<string | null> {
  const dotGit = join(workspace, '.git');
  const info = await stat(dotGit).catch(() => null);
  if (info === null) return null;
  if (!info.isFile()) return dotGit;
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readSmallText(dotGit) ?? '');
  return pointer?.[1] ? resolve(workspace, pointer[1]) : null;
}

// A FIFO or device planted as `.git` or `HEAD` is not waited on: only a regular file is read.
function readSmallText(file: string): string | null {
  try {
    return readRegularFile(file, { maxBytes: 1 << 16 })?.toString('utf8') ?? null;
  } catch {
    return null;
  }
}

// Folder and branch names are the user's text; control characters and markup brackets never reach the prompt.
function cleanName(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f<>]/g, '_').slice(0, 200);
}
