import type { MeasuredBody } from '../../plan/measure-body.js';
import type { CwSnapshot } from '../../snapshot/snapshot.js';
import { isCompactable, splitHistory } from './split-history.js';

/**
 * Whether cw send would compact before this request, and the transform's words for the manifest:
 * compaction is on, the request's conservative estimate reaches the configured share of the input
 * budget, and there are older turns to summarise. Decided from the measured body alone; reads nothing.
 */
export function compactionDue(snapshot: CwSnapshot, measured: MeasuredBody): string | null {
  const policy = snapshot.config.compaction;
  if (!policy.enabled) return null;
  const estimate = measured.estimates.total_conservative;
  const threshold = Math.floor(policy.threshold * measured.ceiling);
  if (estimate < threshold) return null;
  const split = splitHistory(snapshot.session.messages, policy.keep_recent_turns);
  if (!isCompactable(split)) return null;
  return `auto-compaction would summarise ${split.older.length} earlier messages first: about ${estimate} input tokens against a threshold of ${threshold} (${policy.threshold} of the input budget)`;
}
