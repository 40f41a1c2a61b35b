import { mkdir, readFile, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ConversationMessage } from '../prompt/conversation.js';
import { sessionMessagesOf } from './check-session-file.js';
import { writeFileAtomic } from './atomic-write.js';
import { HomeNotWritableError, withFileLock, type LockEvents } from './file-lock.js';

/** A stored session is unreadable; the message names the session file, never its content. */
export class SessionError extends Error {
  override readonly name = 'SessionError';
  readonly exitCode = 1;
  constructor(
    message: string,
    /** Set when the session was changed behind the lock, rather than being unreadable. */
    readonly changed = false,
  ) {
    super(message);
  }
}

/** Where a named session lives inside the cw home. */
export function sessionPath(home: string, name: string): string {
  return join(home, 'sessions', `${name}.json`);
}

/** Reads a session; a session that does not exist yet is empty. Never writes. */
export async function readSession(home: string, name: string): Promise<readonly ConversationMessage[]> {
  let text: string;
  try {
    text = await readFile(sessionPath(home, name), 'utf8');
  } catch (error) {
    // No session yet; ENOTDIR when `sessions` is not a folder, which the first write reports.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new SessionError(`cannot read session ${name}: ${(error as NodeJS.ErrnoException).code ?? 'read error'}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SessionError(`session ${name} is not valid JSON; move sessions/${name}.json aside to start fresh`);
  }
  const messages = sessionMessagesOf(raw);
  if (messages === null)
    throw new SessionError(`session ${name} has an unexpected shape; move sessions/${name}.json aside to start fresh`);
  return messages;
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
    return await withFileLock(file, work, { timeoutMs: SESSION_LOCK_WAIT_MS, ...events });
  } catch (error) {
    // A failed turn leaves the home as it found it: a session folder made for it goes if it is still empty.
    if (created !== undefined) await rmdir(dirname(file)).catch(() => undefined);
    throw error;
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
): Promise<void> {
  const current = await readSession(home, name);
  if (current.length !== expectedLength) {
    throw new SessionError(`session ${name} changed while this turn was in flight`, true);
  }
  await writeFileAtomic(
    sessionPath(home, name),
    `${JSON.stringify({ version: 1, messages: [...current, ...turn] }, null, 2)}\n`,
  );
}
