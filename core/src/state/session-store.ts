import { mkdir, readFile, rename, rmdir } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import type { ConversationMessage } from '../prompt/conversation.js';
import { safeUserLabel } from '../redaction/safe-user-label.js';
import { sessionMessagesOf } from './check-session-file.js';
import { writeFileAtomic } from './atomic-write.js';
import { HomeNotWritableError, withFileLock, type LockEvents } from './file-lock.js';
import { parseSessionKey, sessionFileOf } from './session-location.js';
import { removeInterruptedWrites } from './interrupted-writes.js';
import { withUnknownResults } from './started-calls.js';
import { rememberStamp, sessionStamp } from './session-stamp.js';

/** A stored session as read: its messages and the route its last turn used. */
export interface StoredSession {
  readonly messages: readonly ConversationMessage[];
  readonly route: string | undefined;
}

/** A stored session is unreadable; the message names the session file, never its content. */
export class SessionError extends Error {
  override readonly name = 'SessionError';
  readonly exitCode = 1;
  constructor(
    message: string,
    /** Set when the session was changed behind the lock, rather than being unreadable. */
    readonly changed = false,
    /** The session key of a file that is not a session (bad JSON or shape): cw send moves it aside. */
    readonly corruptKey: string | null = null,
    /** The message as printed, when it names only the session, shown as the user wrote it. */
    readonly safeMessage?: string,
  ) {
    super(message);
  }
}

/** Where a session's messages live inside the cw home; `name` is the session key (docs/cli.md, "Sessions"). */
export function sessionPath(home: string, name: string): string {
  return sessionFileOf(home, name, '.json');
}

/** Reads a session; a session that does not exist yet is empty. Never writes. */
export async function readSession(home: string, name: string): Promise<readonly ConversationMessage[]> {
  return (await readStoredSession(home, name)).messages;
}

/** Reads a session and the route its last turn used; a session that does not exist yet is empty. Never writes. */
export async function readStoredSession(home: string, key: string): Promise<StoredSession> {
  const { name } = parseSessionKey(key);
  // Taken before the read: a write landing after it shows as a change when the stamp is compared.
  const stamp = await sessionStamp(home, key);
  let text: string;
  try {
    text = await readFile(sessionPath(home, key), 'utf8');
  } catch (error) {
    // No session yet; ENOTDIR when `sessions` is not a folder, which the first write reports.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      const messages: readonly ConversationMessage[] = [];
      rememberStamp(messages, stamp);
      return { messages, route: undefined };
    }
    if (code === 'EISDIR') throw corrupt(key, name, 'is a folder, not a session file');
    throw new SessionError(`cannot read session ${name}: ${(error as NodeJS.ErrnoException).code ?? 'read error'}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw corrupt(key, name, 'is not valid JSON');
  }
  const messages = sessionMessagesOf(raw);
  if (messages === null) throw corrupt(key, name, 'has an unexpected shape');
  const route = (raw as { route?: unknown }).route;
  // Calls a killed cw left running are answered as they stand: started, effects unknown.
  const answered = await withUnknownResults(home, key, messages);
  rememberStamp(answered, stamp);
  return { messages: answered, route: typeof route === 'string' ? route : undefined };
}

// The session is the user's own: its name is shown as written when it passes the user-label check,
// since redacting it would hide which session cw send is about to move aside.
function corrupt(key: string, name: string, what: string): SessionError {
  const text = (label: string): string => `session ${label} ${what}; cw send moves it aside and starts it fresh`;
  return new SessionError(text(name), false, key, text(safeUserLabel(name)));
}

/**
 * Moves an unreadable session file aside to `<name>.json.corrupt-<time>` so the session can start
 * fresh without losing it; returns the new file relative to the cw home, for the message.
 */
export async function moveCorruptSessionAside(home: string, key: string): Promise<string> {
  const file = sessionPath(home, key);
  return withFileLock(file, async () => {
    const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(file, aside);
    return relative(home, aside);
  });
}

/** How long a send waits for another cw process working on the same session. */
const SESSION_LOCK_WAIT_MS = 10 * 60_000;

/**
 * Runs `work` holding the session's lock, so turns on one session happen one after another and each
 * is planned on the history the previous one left. The session folder is created first: a home that
 * cannot be written fails here, before anything is sent.
 */
export async function withSessionLock<T>(
  home: string,
  name: string,
  work: () => Promise<T>,
  events: LockEvents & { readonly timeoutMs?: number } = {},
): Promise<T> {
  const file = sessionPath(home, name);
  let created: string | undefined;
  try {
    created = await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new HomeNotWritableError(`the cw home is not writable (${code}); nothing was sent`);
  }
  try {
    return await withFileLock(
      file,
      async () => {
        // Under the lock no write of this session is in flight: what a killed one left can go.
        await removeInterruptedWrites(dirname(file));
        return work();
      },
      { timeoutMs: SESSION_LOCK_WAIT_MS, ...events },
    );
  } catch (error) {
    // A failed turn leaves the home as it found it: the folders made for it go if they are still empty.
    if (created !== undefined) await removeEmptyFolders(dirname(file), created);
    throw error;
  }
}

/** Removes `folder` and its parents up to and including `top` while they are empty. */
async function removeEmptyFolders(folder: string, top: string): Promise<void> {
  for (let current = folder; ; current = dirname(current)) {
    if (
      !(await rmdir(current).then(
        () => true,
        () => false,
      ))
    )
      return;
    if (current === top || dirname(current) === current) return;
  }
}

/**
 * Appends a finished turn; the caller holds the session lock. `expectedLength` is the history length
 * the turn was planned on: a session changed behind the lock (by hand) refuses the turn rather than
 * interleave it.
 */
export async function writeTurn(
  home: string,
  name: string,
  expectedLength: number,
  turn: readonly ConversationMessage[],
  route?: string,
  pause?: (point: string) => Promise<void>,
): Promise<void> {
  const current = await readStoredSession(home, name);
  if (current.messages.length !== expectedLength) {
    throw new SessionError(`session ${parseSessionKey(name).name} changed while this turn was in flight`, true);
  }
  const lastRoute = route ?? current.route;
  await writeFileAtomic(
    sessionPath(home, name),
    `${JSON.stringify({ version: 1, messages: [...current.messages, ...turn], ...(lastRoute === undefined ? {} : { route: lastRoute }) }, null, 2)}\n`,
    pause,
  );
}
