import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';

// Sessions are kept per workspace (docs/cli.md, "Sessions"): `sessions/<workspace key>/<name>.json`
// in the cw home. A session key is `<workspace key>/<name>`, or a bare name for a session that
// belongs to no workspace (a snapshot loaded without a working folder). Every per-session file —
// messages, goal, other state — is found from that key by `sessionFileOf`, so it follows the session.

/** The name a session may have: what `-s`, `cw sessions rename` and config `session` accept. */
export const SESSION_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The session a turn belongs to when config names none. */
export const DEFAULT_SESSION = 'default';

// A workspace key: the folder's name made safe, a dash, and a short hash of its real path.
const WORKSPACE_KEY_PATTERN = /^[A-Za-z0-9_-]{1,32}-[0-9a-f]{10}$/;

/** A session key or name cw will not turn into a path. */
export class SessionKeyError extends Error {
  override readonly name = 'SessionKeyError';
  readonly exitCode = 1;
  readonly safeMessage = 'a session name is 1 to 64 letters, digits, - or _';
}

/**
 * The key of a workspace: its folder's name (letters, digits, - and _ kept, others as _) and the
 * first 10 hex digits of the SHA-256 of its real path, so two folders of one name stay apart and
 * the key never holds the path itself.
 */
export function workspaceKeyOf(workspaceRoot: string): string {
  const name =
    basename(workspaceRoot)
      .replace(/[^A-Za-z0-9_-]/g, '_')
      .slice(0, 32) || 'workspace';
  const hash = createHash('sha256').update(workspaceRoot).digest('hex').slice(0, 10);
  return `${name}-${hash}`;
}

/** The key of session `name` in a workspace (by its key), or the bare name when there is none. */
export function sessionKeyOf(workspaceKey: string | null, name: string): string {
  return workspaceKey === null ? name : `${workspaceKey}/${name}`;
}

/** Splits a session key into its workspace key (null for a bare name) and its name; throws SessionKeyError. */
export function parseSessionKey(key: string): { readonly workspaceKey: string | null; readonly name: string } {
  const parts = key.split('/');
  const name = parts.at(-1) ?? '';
  const workspaceKey = parts.length === 2 ? (parts[0] ?? '') : null;
  if (parts.length > 2 || !SESSION_NAME_PATTERN.test(name)) throw new SessionKeyError(key);
  if (workspaceKey !== null && !WORKSPACE_KEY_PATTERN.test(workspaceKey)) throw new SessionKeyError(key);
  return { workspaceKey, name };
}

/** The folder of one workspace's sessions inside the cw home. */
export function workspaceSessionsFolder(home: string, workspaceKey: string): string {
  return join(home, 'sessions', workspaceKey);
}

/**
 * The one place a session key becomes a file: `suffix` is `.json` for its messages, or
 * `.<state file>` for state kept beside them. A key that is not a session key is refused, so no
 * name can reach outside the sessions folder.
 */
export function sessionFileOf(home: string, key: string, suffix: string): string {
  const { workspaceKey, name } = parseSessionKey(key);
  return workspaceKey === null
    ? join(home, 'sessions', `${name}${suffix}`)
    : join(workspaceSessionsFolder(home, workspaceKey), `${name}${suffix}`);
}
