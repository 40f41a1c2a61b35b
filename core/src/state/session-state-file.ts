import { sessionFileOf } from './session-location.js';

/**
 * Where a per-session state file lives (the goal, the auto-routing choice): next to the session's
 * messages, so it goes wherever the session goes. `session` is the session key (docs/cli.md,
 * "Sessions"); `file` is a plain name such as `goal.json`.
 */
export function sessionStateFile(home: string, session: string, file: string): string {
  return sessionFileOf(home, session, `.${file}`);
}
