import type { ConversationMessage } from '../../prompt/conversation.js';

/** A history cut where compaction may cut it: the older part is summarised, the recent part kept as is. */
export interface HistorySplit {
  readonly older: readonly ConversationMessage[];
  readonly recent: readonly ConversationMessage[];
}

/**
 * Cuts a history before the `keepTurns`-th latest user message. A user message starts a turn, and
 * every tool result answers a call made after the latest user message before it, so cutting there
 * keeps each call and its result on the same side: no half pair survives (docs/compaction.md).
 */
export function splitHistory(messages: readonly ConversationMessage[], keepTurns: number): HistorySplit {
  let seen = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    // A summary is not a turn of its own: it belongs to the older part.
    if (message?.role !== 'user' || message.summary_of !== undefined) continue;
    seen += 1;
    if (seen === keepTurns) return { older: messages.slice(0, index), recent: messages.slice(index) };
  }
  return { older: [], recent: messages };
}

/** Whether the older part holds anything a summary would replace: a lone earlier summary does not count. */
export function isCompactable(split: HistorySplit): boolean {
  return split.older.some((message) => message.role !== 'user' || message.summary_of === undefined);
}
