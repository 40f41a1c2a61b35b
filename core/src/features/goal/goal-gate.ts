import { goalIsLocked, readGoal, readGoalWaiting, type Goal } from './goal-store.js';

/** What a goal says about the next request: none, allowed, stopped, or not knowable exactly. */
export type GoalGate = 'none' | 'within-budget' | 'budget-exhausted' | 'not-snapshottable';

/** The gate of a goal as read: a goal without a budget never stops a turn. */
export function gateOf(goal: Goal | null): GoalGate {
  if (goal === null) return 'none';
  if (goal.token_budget !== null && goal.tokens_used >= goal.token_budget) return 'budget-exhausted';
  return 'within-budget';
}

/**
 * Reads the goal gate of a session without writing or waiting: a goal file another process is
 * changing (its lock is there), or one that cannot be read, cannot be snapshotted exactly.
 */
export async function readGoalGate(home: string, session: string): Promise<GoalGate> {
  if (await goalIsLocked(home, session)) return 'not-snapshottable';
  try {
    return gateOf(await readGoal(home, session));
  } catch {
    return 'not-snapshottable';
  }
}

/**
 * The gate as a send reads it: it waits out another process's short goal update instead of failing,
 * and an unreadable goal still stops the turn (fail closed).
 */
export async function readGoalGateWaiting(home: string, session: string): Promise<GoalGate> {
  try {
    return gateOf(await readGoalWaiting(home, session));
  } catch {
    return 'not-snapshottable';
  }
}
