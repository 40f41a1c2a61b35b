import type { CoreTurnHooks } from '../../turn/core-turn-types.js';
import { featureState, withFeatureState } from '../../snapshot/feature-state.js';
import type { CwSnapshot } from '../../snapshot/snapshot.js';
import { REQUEST_SECTIONS } from '../../turn/reason-table.js';
import type { GateStop } from '../../turn/turn-hooks.js';
import { readGoalGate, readGoalGateWaiting, type GoalGate } from './goal-gate.js';
import { recordGoalUsage } from './record-goal-usage.js';

/** The goal's name among the features: its tap name and its key in `snapshot.features`. */
export const GOAL_FEATURE = 'goal';

/** The goal's stage on `gate`: before every other feature, so a spent budget stops side requests too. */
export const GOAL_STAGE = 100;

/** The goal gate a snapshot holds: none when the goal feature read nothing. */
export function goalGateOf(snapshot: CwSnapshot): GoalGate {
  return featureState<GoalGate>(snapshot, GOAL_FEATURE, 'none');
}

/** The stop a goal gate means, with what a person can do about it; null when it lets the turn go. */
export function goalStop(gate: GoalGate): GateStop | null {
  if (gate === 'not-snapshottable')
    return {
      reason: 'goal-state-not-snapshottable',
      detail: null,
      remedy: "the session's goal file cannot be read; see cw goal show, or remove it with cw goal clear",
    };
  if (gate === 'budget-exhausted')
    return {
      reason: 'goal-token-budget-exhausted',
      detail: null,
      remedy:
        "the session's goal has used up its token budget; raise it with cw goal set --token-budget <larger>, or cw goal clear",
    };
  return null;
}

/**
 * The goal (docs/goal.md) as a turn feature: it reads the session's goal gate, stops every request
 * whose budget is spent (side requests too, before anything else), adds each completed request's
 * tokens, and shows its state in the manifest.
 */
export function applyGoal(hooks: CoreTurnHooks): void {
  const stage = hooks.stages.register(GOAL_FEATURE, GOAL_STAGE);
  hooks.reasons.register({
    reason: 'goal-state-not-snapshottable',
    label: 'the active goal state cannot be snapshotted exactly',
    places: REQUEST_SECTIONS,
    registeredBy: GOAL_FEATURE,
  });
  hooks.reasons.register({
    reason: 'goal-token-budget-exhausted',
    label: 'the active goal token budget is exhausted; no request is eligible',
    places: REQUEST_SECTIONS,
    registeredBy: GOAL_FEATURE,
  });
  hooks.loadState.tapPromise(GOAL_FEATURE, async (snapshot, context) => {
    if (context.fresh) return withFeatureState(snapshot, GOAL_FEATURE, 'none');
    const { key } = snapshot.session;
    // A send waits out another process's short update; a preview reports it as not snapshottable.
    const gate = context.waiting ? await readGoalGateWaiting(context.home, key) : await readGoalGate(context.home, key);
    return withFeatureState(snapshot, GOAL_FEATURE, gate);
  });
  hooks.gate.tap({ name: GOAL_FEATURE, stage }, ({ snapshot }) => goalStop(goalGateOf(snapshot)) ?? undefined);
  hooks.afterRequest.tapPromise(GOAL_FEATURE, async (snapshot, context) =>
    withFeatureState(
      snapshot,
      GOAL_FEATURE,
      await recordGoalUsage(context.home, snapshot.session.key, context.plan, context.reply),
    ),
  );
  // The facts as they came when they already say so: a preview copies them no more than it must.
  hooks.describeSession.tap(GOAL_FEATURE, (facts, snapshot) => {
    const goalState = goalGateOf(snapshot);
    return facts.goal_state === goalState ? facts : { ...facts, goal_state: goalState };
  });
}
