import type { ReasoningTier } from '../route/capability-row.js';

// Offline and deterministic on purpose: preview must pick the same tier send will, from the same
// text, without calling a model. The rule is documented in docs/capability-rows.md ("auto").

// Work that pays for more thinking: finding causes, changing structure, reasoning about correctness.
const DEEP_WORK = [
  /\bdebug/,
  /\bdiagnos/,
  /\binvestigat/,
  /\broot cause/,
  /\brefactor/,
  /\bredesign/,
  /\barchitect/,
  /\bprove\b|\bproof/,
  /\boptimi[sz]/,
  /\bperformance/,
  /\bconcurren/,
  /\brace condition/,
  /\bdeadlock/,
  /\bsecurity|\bvulnerab/,
  /\bmigrat/,
  /\bfail(ing|s|ed|ure)?\b/,
  /\bfix/,
  /\bbug/,
  /\bcrash/,
  /\balgorithm/,
  /\bimplement/,
];

// Mechanical edits that need little thinking.
const LIGHT_WORK = [/\btypo/, /\brename/, /\breformat/, /\bspelling/, /\bformat(ting)? (the|this)\b/];

const LONG_PROMPT_CHARS = 1_000;
const VERY_LONG_PROMPT_CHARS = 8_000;
const SHORT_PROMPT_CHARS = 200;

/**
 * Picks a reasoning tier for `auto` from the text of the turn's latest user message: `max` for very
 * long prompts or three kinds of deep work, `high` for a long prompt or any deep work, `low` for a
 * short mechanical edit, `medium` otherwise. The route's ladder then maps the tier as for any other.
 */
export function autoReasoningTier(text: string): ReasoningTier {
  const lower = text.toLowerCase();
  const deep = DEEP_WORK.filter((pattern) => pattern.test(lower)).length;
  if (text.length > VERY_LONG_PROMPT_CHARS || deep >= 3) return 'max';
  if (text.length > LONG_PROMPT_CHARS || deep >= 1) return 'high';
  if (text.length <= SHORT_PROMPT_CHARS && LIGHT_WORK.some((pattern) => pattern.test(lower))) return 'low';
  return 'medium';
}
