import { UsageError } from './usage-error.js';

/** Usage line of the `cw sessions` commands. */
export const SESSIONS_USAGE =
  'Usage: cw sessions [--all] [--json] | show <name> [--json] [--text] | rm <name> | rename <name> <new-name>';

/**
 * The key of session `name` in the workspace cw runs in. A name that is not a session name is a
 * usage error that does not repeat it: it may be text pasted in the wrong place.
 */
export async function sessionKeyHere(name: string): Promise<{ home: string; key: string; workspace: string }> {
  const core = await import('@cw/core');
  const { cwHome } = await import('@cw/core/home');
  if (!core.SESSION_NAME_PATTERN.test(name))
    throw new UsageError('a session name is 1 to 64 letters, digits, - or _ (cw sessions lists them).', SESSIONS_USAGE);
  const home = cwHome();
  const { key } = await core.activeSession(home, process.cwd());
  const workspace = key.split('/')[0] ?? '';
  return { home, key: `${workspace}/${name}`, workspace };
}
