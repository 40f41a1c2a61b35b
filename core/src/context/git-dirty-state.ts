import { spawn } from 'node:child_process';

/** Whether a repository's tracked files differ from HEAD: `unknown` when git could not say in time. */
export type GitDirtyState = 'clean' | 'dirty' | 'unknown';

/** How long the turn context waits for git before it says `unknown` (docs/project-context.md). */
export const GIT_STATUS_TIMEOUT_MS = 2000;

/**
 * Asks `git status` whether tracked files have uncommitted changes, staged or not. Git's own files
 * cannot answer that without rehashing the tree, so this is the one git process the turn context
 * starts; it is bounded: the first line of output settles it (the process is stopped), and past
 * `timeoutMs` the answer is `unknown`. Untracked files and submodules are not looked at, which is
 * what makes a big repository slow, and `--no-optional-locks` keeps git from writing its index, so
 * a preview stays read-only.
 */
export function gitDirtyState(
  workspace: string,
  options: { readonly timeoutMs?: number; readonly command?: string } = {},
): Promise<GitDirtyState> {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
  // The workspace's repository, whatever repository the caller's environment points git at.
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR']) delete env[name];
  return new Promise((settle) => {
    let done = false;
    const finish = (state: GitDirtyState): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      settle(state);
    };
    const child = spawn(
      options.command ?? 'git',
      [
        '-c',
        'core.fsmonitor=false',
        '--no-optional-locks',
        'status',
        '--porcelain',
        '--untracked-files=no',
        '--ignore-submodules=all',
      ],
      { cwd: workspace, env, stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true },
    );
    const timer = setTimeout(() => finish('unknown'), options.timeoutMs ?? GIT_STATUS_TIMEOUT_MS);
    child.stdout.on('data', () => finish('dirty'));
    child.on('error', () => finish('unknown'));
    child.on('close', (code) => finish(code === 0 ? 'clean' : 'unknown'));
  });
}
