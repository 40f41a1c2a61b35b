import { realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** The configured workspace folder is missing or not a folder; nothing was sent. */
export class WorkspaceError extends Error {
  override readonly name = 'WorkspaceError';
  readonly exitCode = 1;
  readonly safeMessage = 'the workspace folder (config workspace) does not exist or is not a folder; nothing was sent';
}

/**
 * The folder the agent's tools act in, as a real path: the configured one (relative to the current
 * folder), else the git root above the current folder, else the current folder itself.
 */
export async function workspaceRoot(configured: string | undefined, cwd: string = process.cwd()): Promise<string> {
  if (configured !== undefined) {
    const folder = resolve(cwd, configured);
    const info = await stat(folder).catch(() => null);
    if (!info?.isDirectory()) throw new WorkspaceError('workspace folder missing');
    return realpath(folder);
  }
  const start = await realpath(cwd);
  for (let folder = start; ; folder = dirname(folder)) {
    // `.git` is a folder in a clone and a file in a worktree or submodule; either marks the root.
    if (
      await stat(join(folder, '.git')).then(
        () => true,
        () => false,
      )
    )
      return folder;
    if (dirname(folder) === folder) return start;
  }
}
