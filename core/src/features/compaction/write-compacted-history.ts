import type { ConversationMessage } from '../../prompt/conversation.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { readSession, sessionPath } from '../../state/session-store.js';
import { CompactionError } from './compaction-error.js';

/**
 * Replaces a session's history with its compacted form, atomically; the caller holds the session
 * lock. A session that changed since the compaction read it (by hand) is left alone.
 */
export async function writeCompactedHistory(
  home: string,
  name: string,
  expected: readonly ConversationMessage[],
  next: readonly ConversationMessage[],
): Promise<void> {
  const current = await readSession(home, name);
  if (JSON.stringify(current) !== JSON.stringify(expected)) {
    throw new CompactionError(`session ${name} changed while it was being compacted; nothing was saved`);
  }
  await writeFileAtomic(sessionPath(home, name), `${JSON.stringify({ version: 1, messages: next }, null, 2)}\n`);
}
