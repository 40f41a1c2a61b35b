import { workspaceRoot } from '../state/workspace-root.js';
import { DEFAULT_SESSION, sessionKeyOf, workspaceKeyOf } from '../state/session-location.js';
import { loadConfig, type CwConfig } from './cw-config.js';

/** The session config selects (config `session`), else `default`. */
export function sessionNameOf(config: CwConfig): string {
  return config.session ?? DEFAULT_SESSION;
}

/** Reads config.json and names the active session: what `cw goal` acts on. */
export async function activeSessionName(home: string): Promise<string> {
  return sessionNameOf(await loadConfig(home));
}

/** The active session of the workspace `cwd` is in (config `session`, else `default`): its name and key. */
export async function activeSession(home: string, cwd: string): Promise<{ name: string; key: string }> {
  const config = await loadConfig(home);
  const name = sessionNameOf(config);
  return { name, key: sessionKeyOf(workspaceKeyOf(await workspaceRoot(config.workspace, cwd)), name) };
}
