import type { ConversationMessage } from '../../prompt/conversation.js';
import { safeErrorText } from '../../redaction/index.js';
import {
  planSideRequest,
  sendSideRequest,
  sideSnapshot,
  type SideRequestOptions,
} from '../../side-request/side-request.js';
import type { CwSnapshot, FeatureStates } from '../../snapshot/snapshot.js';
import { CompactionError } from './compaction-error.js';
import { compactionPrompt, summaryMessage } from './compaction-prompt.js';
import { writeCompactedHistory } from './write-compacted-history.js';
import { isCompactable, splitHistory } from './split-history.js';

/** What one compaction did: the history as saved, and the feature state after its request. */
export interface Compacted {
  readonly messages: readonly ConversationMessage[];
  /** Earlier messages the summary replaced. */
  readonly summarised: number;
  /** Messages kept word for word after the summary. */
  readonly kept: number;
  /** The features' state after the summary's request (the goal counted its tokens). */
  readonly features: FeatureStates;
}

// Each retry leaves out another quarter of what is left; eight retries leave out about nine tenths.
const MAX_TRIES = 9;

/**
 * Summarises the older part of the snapshot's history with one request on its route, replaces it
 * with the summary, and saves the result atomically. The caller holds the session lock, and the
 * snapshot's history is the session as stored. Null when there is nothing older to summarise. A
 * failure (the request, an empty summary, the write) throws and leaves the session as it was.
 */
export async function compactHistory(snapshot: CwSnapshot, options: SideRequestOptions): Promise<Compacted | null> {
  const messages = snapshot.session.messages;
  const split = splitHistory(messages, snapshot.config.compaction.keep_recent_turns);
  if (!isCompactable(split)) return null;
  const side = sideSnapshot(snapshot);
  let omitted = 0;
  for (let attempt = 1; ; attempt++) {
    const plan = planSideRequest(side, compactionPrompt(split.older.slice(omitted), omitted), options.entrypoint);
    if (plan.status === 'blocked') {
      const left = split.older.length - omitted;
      if (plan.reason === 'input-budget-exceeded' && attempt < MAX_TRIES && left > 1) {
        omitted += Math.max(1, Math.ceil(left / 4));
        continue;
      }
      throw new CompactionError(
        `compaction could not be prepared (${plan.reason}${plan.detail ? `: ${plan.detail}` : ''}); nothing was saved`,
      );
    }
    const { reply, snapshot: after } = await sendSideRequest(side, plan, options);
    const summary = reply.text.trim();
    if (summary === '') throw new CompactionError('the compaction summary came back empty; nothing was saved');
    const next = [summaryMessage(summary, split.older.length), ...split.recent];
    try {
      await writeCompactedHistory(options.home, snapshot.session.key, messages, next);
    } catch (error) {
      if (error instanceof CompactionError) throw error;
      const code = (error as NodeJS.ErrnoException | null)?.code;
      throw new CompactionError(
        `the compacted session could not be saved (${safeErrorText(typeof code === 'string' ? code : 'write failed')}); nothing was changed`,
      );
    }
    return { messages: next, summarised: split.older.length, kept: split.recent.length, features: after.features };
  }
}
