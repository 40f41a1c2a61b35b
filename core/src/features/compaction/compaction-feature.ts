import type { CoreTurnHooks } from '../../turn/core-turn-types.js';
import { compactHistory } from './compact-history.js';
import { compactionDue } from './compaction-due.js';

/** Compaction's name among the features. */
export const COMPACTION_FEATURE = 'compaction';

/**
 * Auto-compaction (docs/compaction.md) as a turn feature: a measured request that reaches the
 * threshold is a transform preview reports and a send performs under the session lock, summarising
 * the older turns with a side request before the request goes out.
 */
export function applyCompaction(hooks: CoreTurnHooks): void {
  hooks.notices.register({
    kind: 'compaction',
    description: 'The session was compacted before the request went out (docs/compaction.md).',
    fields: {
      summarised: { type: 'integer', description: 'Earlier messages replaced by the summary.' },
      kept: { type: 'integer', description: 'Recent messages kept as they were.' },
    },
    text: (fields) =>
      `compacted the session: ${String(fields['summarised'])} earlier messages replaced by a summary (docs/compaction.md)`,
    registeredBy: COMPACTION_FEATURE,
  });
  hooks.transformsDue.tap(COMPACTION_FEATURE, (due, { snapshot, measured }) => {
    // A side request (the summary itself, a classification) never compacts.
    const words = snapshot.purpose === 'side' ? null : compactionDue(snapshot, measured);
    return words === null ? due : [...due, { words, resolvable: true }];
  });
  hooks.resolveBlock.tapPromise(COMPACTION_FEATURE, async (blocked, context) => {
    const { snapshot } = context;
    if (!blocked.resolvable || blocked.measured === null || compactionDue(snapshot, blocked.measured) === null)
      return undefined;
    // Summarised and saved before the request goes out; what no longer fits after it is refused by the plan.
    const compacted = await compactHistory(snapshot, context);
    if (compacted === null) return undefined;
    context.notify?.({ kind: 'compaction', summarised: compacted.summarised, kept: compacted.kept });
    return {
      snapshot: {
        ...snapshot,
        features: compacted.features,
        session: { ...snapshot.session, messages: compacted.messages },
      },
    };
  });
}
