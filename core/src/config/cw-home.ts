import { homedir } from 'node:os';
import { join } from 'node:path';

/** The folder that holds config.json and sessions: `$CW_HOME`, else `~/.cw`. */
export function cwHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['CW_HOME'];
  return fromEnv && fromEnv.trim() !== '' ? fromEnv : join(homedir(), '.cw');
}
