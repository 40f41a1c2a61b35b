import { onRoute } from '../auto-route/on-route.js';
import { readGoalGateWaiting } from '../goal/goal-gate.js';
import { CompactionError } from './compaction-error.js';
import { TurnBlockedError } from '../../plan/turn-blocked-error.js';
import type { SideRequestOptions } from '../../side-request/side-request.js';
import type { CwSnapshot } from '../../snapshot/snapshot.js';
import type { LockEvents } from '../../state/file-lock.js';
import { readSession, withSessionLock } from '../../state/session-store.js';
import { compactHistory, type Compacted } from './compact-history.js';
import { isCompactable, splitHistory } from './split-history.js';

/**
 * `cw compact`: summarises the session's older turns now, whatever the threshold, on the session's
 * route, under the session lock. Null when there is nothing older than the kept turns. The goal gate
 * applies as it does to any request.
 */
export async function compactSession(
  loaded: CwSnapshot,
  options: SideRequestOptions & LockEvents,
): Promise<Compacted | null> {
  if (loaded.pending.autoRouting && !loaded.autoRouteChoice)
    throw new CompactionError('auto routing has not chosen a route for this session yet; send a prompt first');
  // Under auto routing, the summary goes to the route chosen for the session's latest prompt.
  const snapshot =
    loaded.pending.autoRouting && loaded.autoRouteChoice ? onRoute(loaded, loaded.autoRouteChoice) : loaded;
  // Files are found by the session's key (docs/cli.md, "Sessions").
  const { name, key } = snapshot.session;
  const keep = snapshot.config.compaction.keep_recent_turns;
  // Nothing to do is known without a lock, so a session with nothing to compact is left untouched.
  if (!isCompactable(splitHistory(snapshot.session.messages, keep))) return null;
  const gate = async () => {
    const goal = await readGoalGateWaiting(options.home, key);
    if (goal === 'budget-exhausted') throw new TurnBlockedError('goal-token-budget-exhausted', null);
    if (goal === 'not-snapshottable') throw new TurnBlockedError('goal-state-not-snapshottable', null);
    return goal;
  };
  await gate();
  return withSessionLock(
    options.home,
    key,
    async () => {
      const goal = await gate();
      const messages = await readSession(options.home, key);
      return compactHistory(
        { ...snapshot, pending: { ...snapshot.pending, goal }, session: { name, key, messages } },
        options,
      );
    },
    options,
  );
}
