import { loadConfig, type CwConfig } from './cw-config.js';

/** The session a turn belongs to when config names none. */
export const DEFAULT_SESSION = 'default';

/** The session config selects (config `session`), else `default`. */
export function sessionNameOf(config: CwConfig): string {
  return config.session ?? DEFAULT_SESSION;
}

/** Reads config.json and names the active session: what `cw goal` acts on. */
export async function activeSessionName(home: string): Promise<string> {
  return sessionNameOf(await loadConfig(home));
}
