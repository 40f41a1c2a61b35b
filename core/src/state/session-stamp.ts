import { stat } from 'node:fs/promises';
import type { ConversationMessage } from '../prompt/conversation.js';
import { sessionFileOf } from './session-location.js';
import { STARTED_CALLS_SUFFIX } from './started-calls.js';

// What a read saw of a session's files, kept by the messages it returned, so a send that takes the
// lock later can tell that nothing changed since and plan on what it already holds instead of
// reading the session again (docs/architecture.md, "One read per send"). Session writes replace the
// file (a new file renamed into place), so its identity, size and times change with every write.

const seen = new WeakMap<readonly ConversationMessage[], string>();

/**
 * The session's files as they stand, or null when a read of them must not be reused: a started-calls
 * journal beside it answers calls according to whether its writer still lives, which no stamp shows.
 */
export async function sessionStamp(home: string, key: string): Promise<string | null> {
  const [session, journal] = await Promise.all([
    fileStamp(sessionFileOf(home, key, '.json')),
    fileStamp(sessionFileOf(home, key, STARTED_CALLS_SUFFIX)),
  ]);
  return journal === 'absent' ? session : null;
}

/** Keeps the stamp taken before `messages` were read (a change after it then shows as a difference). */
export function rememberStamp(messages: readonly ConversationMessage[], stamp: string | null): void {
  if (stamp !== null) seen.set(messages, stamp);
}

/** Whether the session's files are as they were when `messages` were read; false when unknown. */
export async function unchangedSince(
  home: string,
  key: string,
  messages: readonly ConversationMessage[],
): Promise<boolean> {
  const before = seen.get(messages);
  if (before === undefined) return false;
  return (await sessionStamp(home, key)) === before;
}

/** The file's identity, size and times; `absent`; or null when it cannot be looked at (never the same twice). */
async function fileStamp(file: string): Promise<string | null> {
  try {
    const facts = await stat(file, { bigint: true });
    return `${facts.dev}:${facts.ino}:${facts.size}:${facts.mtimeNs}:${facts.ctimeNs}`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'absent';
    return null;
  }
}

/** The messages of a session chosen fresh (none), remembered as unchanged while its file does not exist. */
export async function freshSessionMessages(home: string, key: string): Promise<readonly ConversationMessage[]> {
  const messages: readonly ConversationMessage[] = [];
  const stamp = await sessionStamp(home, key);
  if (stamp === 'absent') rememberStamp(messages, stamp);
  return messages;
}
