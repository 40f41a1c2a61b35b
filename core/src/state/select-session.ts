import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_SESSION, SESSION_NAME_PATTERN, sessionKeyOf, workspaceSessionsFolder } from './session-location.js';

/** Which session a command acts on: the default, a named one, a fresh one, or the most recently used. */
export type SessionSelection =
  | { readonly kind: 'default' }
  | { readonly kind: 'named'; readonly name: string }
  | { readonly kind: 'new' }
  | { readonly kind: 'continue' };

/** A session picked for a turn: its name (what people see) and its key (where its files are). */
export interface SelectedSession {
  readonly name: string;
  readonly key: string;
  /** True for `new`: nothing is stored under it yet. */
  readonly fresh: boolean;
}

/** A session name given on the command line is not one cw can store. */
export class SessionNameError extends Error {
  override readonly name = 'SessionNameError';
  readonly exitCode = 2;
  readonly safeMessage = '`--session` takes a name of 1 to 64 letters, digits, - or _';
}

/**
 * Picks the session of a turn in a workspace (null: no workspace, sessions kept by name only).
 * `new` takes the first free name `s1`, `s2`, …, so a preview and the send after it agree on it;
 * `continue` takes the session whose file changed last, else the default. Reads only.
 */
export async function selectSession(
  home: string,
  workspaceKey: string | null,
  configured: string | undefined,
  selection: SessionSelection,
): Promise<SelectedSession> {
  const pick = (name: string, fresh = false): SelectedSession => ({
    name,
    key: sessionKeyOf(workspaceKey, name),
    fresh,
  });
  switch (selection.kind) {
    case 'default':
      return pick(configured ?? DEFAULT_SESSION);
    case 'named':
      if (!SESSION_NAME_PATTERN.test(selection.name)) throw new SessionNameError(selection.name);
      return pick(selection.name);
    case 'new': {
      const taken = new Set((await storedSessions(home, workspaceKey)).map((entry) => entry.name));
      let number = 1;
      while (taken.has(`s${number}`)) number++;
      return pick(`s${number}`, true);
    }
    case 'continue': {
      const stored = await storedSessions(home, workspaceKey);
      const latest = stored.sort((a, b) => b.modifiedMs - a.modifiedMs || a.name.localeCompare(b.name))[0];
      return pick(latest?.name ?? configured ?? DEFAULT_SESSION);
    }
    default: {
      const unknown: never = selection;
      throw new Error(`unknown session selection ${String(unknown)}`);
    }
  }
}

/** The sessions stored for a workspace (or the bare-name sessions), with when each last changed. */
export async function storedSessions(
  home: string,
  workspaceKey: string | null,
): Promise<{ readonly name: string; readonly modifiedMs: number }[]> {
  const folder = workspaceKey === null ? join(home, 'sessions') : workspaceSessionsFolder(home, workspaceKey);
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const found: { name: string; modifiedMs: number }[] = [];
  for (const entry of entries) {
    // A folder in a session's place is listed too, so `cw sessions` can say it is not readable.
    if (!(entry.isFile() || entry.isDirectory()) || !entry.name.endsWith('.json')) continue;
    const name = entry.name.slice(0, -'.json'.length);
    // State files (`<name>.goal.json`) and anything else not named like a session are not sessions.
    if (!SESSION_NAME_PATTERN.test(name)) continue;
    const info = await stat(join(folder, entry.name)).catch(() => null);
    if (info !== null) found.push({ name, modifiedMs: info.mtimeMs });
  }
  return found;
}
