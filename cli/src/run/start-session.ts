import type { StartSession } from '../entry/start-line.js';

// The session `cw -c`, `cw -r <name>`, `cw chat -c/-r` and `cw -p -c/-r` ask for, checked before
// anything runs: continuing needs a session in this workspace, resuming needs the named one. A
// failure is one line and exit 2, and nothing is written (docs/cli.md, "Starting cw").

/** A stored session of this workspace as the picker shows it. */
export interface SessionRow {
  readonly name: string;
  readonly lastUsed: string;
  readonly route: string | null;
  /** The first prompt's text, whole; the picker shortens and terminal-safes it. */
  readonly firstPrompt: string | null;
}

/** The start line's session problem, as one line for the person; null when the session is there. */
export async function startSessionProblem(session: StartSession): Promise<string | null> {
  if (session.kind === 'none' || session.kind === 'pick') return null;
  const rows = await sessionRowsHere(0);
  if (session.kind === 'continue')
    return rows.length > 0
      ? null
      : 'no session to continue in this workspace: start one with cw "<prompt>" or cw -p "<prompt>".';
  const core = await import('@cw/core');
  if (!core.SESSION_NAME_PATTERN.test(session.name))
    return 'a session name is 1 to 64 letters, digits, - or _ (cw sessions lists them).';
  return rows.some((row) => row.name === session.name)
    ? null
    : `no session named ${core.safeIdentifier(session.name)} in this workspace: cw sessions lists them.`;
}

/** This workspace's readable sessions, newest first; the first `withPrompts` carry their first prompt. */
export async function sessionRowsHere(withPrompts: number): Promise<readonly SessionRow[]> {
  const core = await import('@cw/core');
  const { cwHome } = await import('@cw/core/home');
  const home = cwHome();
  const { key } = await core.activeSession(home, process.cwd());
  const workspace = key.split('/')[0] ?? null;
  const rows = (await core.listSessions(home, workspace)).filter((row) => !row.corrupt && row.workspace === workspace);
  return Promise.all(
    rows.map(async (row, index) => ({
      name: row.name,
      lastUsed: row.lastUsed,
      route: row.route,
      firstPrompt:
        index < withPrompts
          ? ((await core.showSession(home, row.key).catch(() => [])).find((message) => message.role === 'user')
              ?.content ?? null)
          : null,
    })),
  );
}
