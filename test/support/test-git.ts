// The tests' own git: no user or system config, a fixed author, so what a test compares against is
// git's answer alone, whatever the machine's git config says.
import { spawnSync } from 'node:child_process';

/** The environment every test's git runs with. */
export const TEST_GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};

/** Runs git in `cwd` and returns its stdout; a failure throws with git's stderr. */
export function testGit(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', args, { cwd, env: TEST_GIT_ENV, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}
