import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../../validation/lazy-zod.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { withFileLock } from '../../state/file-lock.js';
import { parseSessionKey } from '../../state/session-location.js';
import { sessionStateFile } from '../../state/session-state-file.js';

/** The largest token budget a goal takes: far above any real session, small enough to stay exact in JSON. */
export const MAX_GOAL_TOKEN_BUDGET = 1_000_000_000_000;
/** The longest goal text, in characters. */
export const MAX_GOAL_TEXT = 4_000;

const goalFileSchema = lazySchema((z) =>
  z
    .object({
      version: z.literal(1),
      text: z.string().min(1).max(MAX_GOAL_TEXT),
      /** Null: the goal has no token budget and never stops a turn. */
      token_budget: z.number().int().positive().max(MAX_GOAL_TOKEN_BUDGET).nullable(),
      /** Provider-reported tokens (input plus output) of every request sent since the goal was set. */
      tokens_used: z.number().int().min(0),
    })
    .strict(),
);

/** A session's goal as stored. */
export type Goal = z.output<typeof goalFileSchema>;

/** The goal file cannot be read, or changed, as it stands; the message names no path and no text. */
export class GoalStateError extends Error {
  override readonly name = 'GoalStateError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(message: string) {
    super(message);
    this.safeMessage = message;
  }
}

// Messages name the session as people know it, not by its key.
function nameOf(session: string): string {
  return parseSessionKey(session).name;
}

/** Where a session's goal is kept; `session` is the session key (docs/cli.md, "Sessions"). */
export function goalFile(home: string, session: string): string {
  return sessionStateFile(home, session, 'goal.json');
}

/** Reads a session's goal; null when none is set. Never writes. Throws GoalStateError when unreadable. */
export async function readGoal(home: string, session: string): Promise<Goal | null> {
  let text: string;
  try {
    text = await readFile(goalFile(home, session), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new GoalStateError(`the goal of session ${nameOf(session)} cannot be read (${code ?? 'read error'})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new GoalStateError(`the goal of session ${nameOf(session)} is not valid JSON; cw goal clear removes it`);
  }
  const parsed = goalFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new GoalStateError(
      `the goal of session ${nameOf(session)} has an unexpected shape; cw goal clear removes it`,
    );
  return parsed.data;
}

/** Whether another cw process is changing the goal right now (its lock is there). Reads only. */
export async function goalIsLocked(home: string, session: string): Promise<boolean> {
  // One look, asked synchronously: every preview asks it, and a promise's stat costs a first one
  // several times more.
  return existsSync(`${goalFile(home, session)}.lock`);
}

// A goal update takes milliseconds; a lock held longer belongs to a stuck process.
const GOAL_LOCK_WAIT_MS = 10_000;

/** Runs `work` holding the goal's lock; the sessions folder is made first, since the lock lives in it. */
async function withGoalLock<T>(home: string, session: string, work: () => Promise<T>): Promise<T> {
  const file = goalFile(home, session);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  return withFileLock(file, work, { timeoutMs: GOAL_LOCK_WAIT_MS });
}

async function writeGoal(home: string, session: string, goal: Goal): Promise<void> {
  await writeFileAtomic(goalFile(home, session), `${JSON.stringify(goal, null, 2)}\n`);
}

/**
 * Sets the session's goal. A new text starts a new goal (usage from 0); the same text, or none, keeps
 * the goal and its usage and changes only the budget. `tokenBudget` undefined keeps the current budget
 * for the same goal and means "no budget" for a new one; null removes the budget.
 */
export async function setGoal(
  home: string,
  session: string,
  change: { readonly text?: string; readonly tokenBudget?: number | null },
): Promise<Goal> {
  // A budget alone needs a goal to apply to: said before anything is written.
  if (change.text === undefined && (await readGoal(home, session)) === null) throw noGoal();
  return withGoalLock(home, session, async () => {
    // An unreadable goal is replaced only by a new text: a budget alone has nothing to apply to.
    const current =
      change.text === undefined ? await readGoal(home, session) : await readGoal(home, session).catch(() => null);
    const same = current !== null && (change.text === undefined || change.text === current.text);
    const text = change.text ?? current?.text;
    if (text === undefined) throw noGoal();
    const goal: Goal = {
      version: 1,
      text,
      token_budget:
        change.tokenBudget === undefined ? (same ? (current?.token_budget ?? null) : null) : change.tokenBudget,
      tokens_used: same ? (current?.tokens_used ?? 0) : 0,
    };
    await writeGoal(home, session, goal);
    return goal;
  });
}

/**
 * Reads the goal the way a send does: when another process holds the goal's lock, waits for it
 * (an update takes milliseconds) instead of failing. Writes nothing when there is no goal.
 */
export async function readGoalWaiting(home: string, session: string): Promise<Goal | null> {
  if (!(await goalIsLocked(home, session))) return readGoal(home, session);
  return withGoalLock(home, session, () => readGoal(home, session));
}

function noGoal(): GoalStateError {
  return new GoalStateError('no goal is set: give the goal text, cw goal set "<text>"');
}

/** Removes the session's goal, readable or not; false when there was none. */
export async function clearGoal(home: string, session: string): Promise<boolean> {
  return withGoalLock(home, session, async () => {
    const file = goalFile(home, session);
    const existed = await stat(file).then(
      () => true,
      () => false,
    );
    await rm(file, { force: true });
    return existed;
  });
}

/**
 * Adds the tokens of one completed request to the goal, under its lock; returns the goal as it now
 * stands, or null when the session has none (nothing is written then).
 */
export async function addGoalUsage(home: string, session: string, tokens: number): Promise<Goal | null> {
  if ((await readGoal(home, session)) === null) return null;
  return withGoalLock(home, session, async () => {
    const current = await readGoal(home, session);
    if (current === null) return null;
    const goal: Goal = { ...current, tokens_used: current.tokens_used + tokens };
    await writeGoal(home, session, goal);
    return goal;
  });
}
