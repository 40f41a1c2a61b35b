import { replaceOutboundSecrets } from '../../redaction/outbound-secrets.js';
import { gateOf } from './goal-gate.js';
import type { Goal } from './goal-store.js';

/** A goal as `cw goal show --json` prints it. */
export interface GoalView {
  /** The goal text, with secret-shaped text replaced as it would be on the way to a model. */
  readonly text: string;
  readonly token_budget: number | null;
  readonly tokens_used: number;
  /** Budget less usage, never below 0; null without a budget. */
  readonly tokens_left: number | null;
  /** `active`, or `budget-exhausted` when cw send and preview stop before the next request. */
  readonly state: 'active' | 'budget-exhausted';
}

/** What `cw goal show` prints of a goal: the person's own text back (secrets replaced) and the counts. */
export function goalView(goal: Goal): GoalView {
  return {
    text: replaceOutboundSecrets(goal.text).text,
    token_budget: goal.token_budget,
    tokens_used: goal.tokens_used,
    tokens_left: goal.token_budget === null ? null : Math.max(0, goal.token_budget - goal.tokens_used),
    state: gateOf(goal) === 'budget-exhausted' ? 'budget-exhausted' : 'active',
  };
}
