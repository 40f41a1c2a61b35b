import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { ConversationMessage } from '../prompt/conversation.js';
import { writeFileAtomic } from './atomic-write.js';
import { withFileLock } from './file-lock.js';

const toolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string() }).strict();
const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.string() }).strict(),
  z.object({ role: z.literal('assistant'), content: z.string(), tool_calls: z.array(toolCall).optional() }).strict(),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), name: z.string(), content: z.string() }).strict(),
]);
const sessionFile = z.object({ version: z.literal(1), messages: z.array(message) }).strict();

/** A stored session is unreadable; the message names the session file, never its content. */
export class SessionError extends Error {
  override readonly name = 'SessionError';
  readonly exitCode = 1;
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
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SessionError(`cannot read session ${name}: ${(error as NodeJS.ErrnoException).code ?? 'read error'}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SessionError(`session ${name} is not valid JSON; move sessions/${name}.json aside to start fresh`);
  }
  const parsed = sessionFile.safeParse(raw);
  if (!parsed.success)
    throw new SessionError(`session ${name} has an unexpected shape; move sessions/${name}.json aside to start fresh`);
  return parsed.data.messages;
}

/**
 * Appends a finished turn under the session lock. `expectedLength` is the history length the turn
 * was prepared from: if another process appended meanwhile, the turn is refused rather than interleaved.
 */
export async function appendTurn(
  home: string,
  name: string,
  expectedLength: number,
  turn: readonly ConversationMessage[],
): Promise<void> {
  const file = sessionPath(home, name);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await withFileLock(file, async () => {
    const current = await readSession(home, name);
    if (current.length !== expectedLength) {
      throw new SessionError(`session ${name} changed while this turn was in flight; the reply was not saved`);
    }
    await writeFileAtomic(file, `${JSON.stringify({ version: 1, messages: [...current, ...turn] }, null, 2)}\n`);
  });
}
