import { turnHooksOf } from '../../turn/core-turn-types.js';
import { TurnBlockedError } from '../../plan/turn-blocked-error.js';
import type { SideRequestOptions } from '../../side-request/side-request.js';
import type { CwSnapshot } from '../../snapshot/snapshot.js';
import type { LockEvents } from '../../state/file-lock.js';
import { readSession, withSessionLock } from '../../state/session-store.js';
import { gateTurn } from '../../turn/gate-turn.js';
import { autoRouteStateOf, onRoute } from '../auto-route/auto-route-feature.js';
import { compactHistory, type Compacted } from './compact-history.js';
import { CompactionError } from './compaction-error.js';
import { isCompactable, splitHistory } from './split-history.js';

/**
 * `cw compact`: summarises the session's older turns now, whatever the threshold, on the session's
 * route, under the session lock. Null when there is nothing older than the kept turns. The summary is
 * a side request, so the gates that guard every request (the goal) apply to it as to any other.
 */
export async function compactSession(
  loaded: CwSnapshot,
  options: SideRequestOptions & LockEvents,
): Promise<Compacted | null> {
  const auto = autoRouteStateOf(loaded);
  if (auto.pending && auto.choice === null)
    throw new CompactionError('auto routing has not chosen a route for this session yet; send a prompt first');
  // Under auto routing, the summary goes to the route chosen for the session's latest prompt.
  const snapshot = auto.pending && auto.choice !== null ? onRoute(loaded, auto.choice) : loaded;
  // Files are found by the session's key (docs/cli.md, "Sessions").
  const { name, key } = snapshot.session;
  const keep = snapshot.config.compaction.keep_recent_turns;
  // Nothing to do is known without a lock, so a session with nothing to compact is left untouched.
  if (!isCompactable(splitHistory(snapshot.session.messages, keep))) return null;
  // The state as a send reads it (waiting out a short update), checked by the same gates.
  const gated = async (): Promise<CwSnapshot> => {
    const current = await turnHooksOf(snapshot.registry).loadState.promise(snapshot, {
      home: options.home,
      fresh: false,
      waiting: true,
    });
    const stop = gateTurn({ ...current, purpose: 'side' }, 'prompt', 'plan');
    if (stop !== null) throw new TurnBlockedError(stop.reason, stop.detail, stop.remedy);
    return current;
  };
  await gated();
  return withSessionLock(
    options.home,
    key,
    async () => {
      const current = await gated();
      const messages = await readSession(options.home, key);
      return compactHistory({ ...current, session: { name, key, messages } }, options);
    },
    options,
  );
}
