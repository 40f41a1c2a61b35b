import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { PromptLayer } from './prompt-layer.js';

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
 * The turn-context layer: the working folder relative to the workspace, the git branch and the date.
 * Deterministic: the same folder, branch and day give the same bytes (docs/project-context.md).
 */
export async function turnContextLayer(options: {
  readonly workspace: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly now?: Date;
}): Promise<PromptLayer> {
  const rel = relative(options.workspace, options.cwd);
  const inside = rel === '' || !(rel.startsWith('..') || isAbsolute(rel));
  const folder = rel === '' ? '.' : inside ? rel.split(sep).join('/') : '(outside the workspace)';
  const branch = (await gitBranch(options.workspace)) ?? '(none)';
  const date = turnDate(options.env, options.now ?? new Date());
  return {
    kind: 'turn-context',
    depth: 0,
    text: `\n<turn-context>\nworking folder: ${folder}\ngit branch: ${branch}\ndate: ${date}\n</turn-context>\n`,
    truncated: false,
  };
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
  const dotGit = join(workspace, '.git');
  const info = await stat(dotGit).catch(() => null);
  if (info === null) return null;
  let gitDir = dotGit;
  if (info.isFile()) {
    // A worktree or submodule: `.git` is a file that points at the real git folder.
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''));
    if (!pointer?.[1]) return null;
    gitDir = resolve(workspace, pointer[1]);
  }
  const head = await readFile(join(gitDir, 'HEAD'), 'utf8').catch(() => null);
  if (head === null) return null;
  const ref = /^ref:\s*refs\/heads\/(.+?)\s*$/m.exec(head);
  if (ref?.[1]) return sanitizeBranch(ref[1]);
  return '(detached)';
}

// A branch name is the user's text; control characters and markup brackets never reach the prompt.
function sanitizeBranch(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f<>]/g, '_').slice(0, 200);
}
