import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { errorCode, fsErrorMessage } from './fs-error-message.js';

/** A requested path, confined to the workspace. */
export interface WorkspacePath {
  /** The workspace root, real and absolute. Never shown to the model. */
  readonly root: string;
  /** The real absolute path of the target; for a target that does not exist yet, its nearest existing parent's real path joined with the rest. */
  readonly real: string;
  /** The path as the model should read it: workspace-relative, `/`-separated, `.` for the root. */
  readonly display: string;
  /** Whether the target itself exists. */
  readonly exists: boolean;
}

export type Resolution =
  | { readonly ok: true; readonly path: WorkspacePath }
  | { readonly ok: false; readonly error: string };

const OUTSIDE = 'path is outside the workspace; use a path relative to the workspace root';

/** Whether `target` is `root` or inside it; both are absolute and normalized. */
export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** `target` relative to `root`, `/`-separated, `.` for the root itself. */
export function displayPath(root: string, target: string): string {
  const relative = path.relative(root, target);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

/**
 * Resolves a workspace-relative path (an absolute one is taken as is) and refuses anything whose real
 * path is not the workspace or inside it: `..` escapes, absolute paths elsewhere, symbolic links that
 * point out. A symbolic link inside pointing inside is followed. Messages never carry an absolute path.
 */
export async function resolveInWorkspace(workspace: string, requested: string): Promise<Resolution> {
  if (requested.includes('\0')) return { ok: false, error: 'path contains a NUL character' };
  let root: string;
  try {
    root = await realpath(workspace);
  } catch {
    return { ok: false, error: 'the workspace folder is not accessible' };
  }
  const absolute = path.resolve(root, requested);
  const lexicallyInside = isInside(root, absolute);
  const shown = lexicallyInside ? displayPath(root, absolute) : null;
  const label = shown ?? 'path';

  // Walk up to the nearest existing ancestor: a file that does not exist yet is judged by its parent.
  const rest: string[] = [];
  let current = absolute;
  let real: string;
  for (;;) {
    try {
      real = await realpath(current);
      break;
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOTDIR') {
        return { ok: false, error: `${label}: a component of the path is not a directory` };
      }
      if (code !== 'ENOENT') return { ok: false, error: lexicallyInside ? fsErrorMessage(error, label) : OUTSIDE };
      if (await isPresent(current)) {
        // realpath said ENOENT but the entry is there: a symbolic link to nothing. Its target is unknown ground.
        return {
          ok: false,
          error: lexicallyInside ? `${label}: goes through a broken symbolic link` : OUTSIDE,
        };
      }
      const parent = path.dirname(current);
      if (parent === current) return { ok: false, error: OUTSIDE };
      rest.unshift(path.basename(current));
      current = parent;
    }
  }
  const target = rest.length === 0 ? real : path.join(real, ...rest);
  if (!isInside(root, target)) {
    return {
      ok: false,
      error: lexicallyInside ? `path is outside the workspace: ${label} leads out through a symbolic link` : OUTSIDE,
    };
  }
  return {
    ok: true,
    path: { root, real: target, display: shown ?? displayPath(root, target), exists: rest.length === 0 },
  };
}

async function isPresent(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch {
    return false;
  }
}
