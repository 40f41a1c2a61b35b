import type { ReasoningLayout } from '@cw/core/plugin';

// Chat's flat key is read first on every dialect: the one most routes use, whatever nests beside it.
const FLAT_EFFORT_PATH = 'reasoning_effort';

/**
 * The reasoning layout of a dialect whose controls are top-level objects: an effort sits at
 * `<key>.effort` and a budget at `<key>.budget_tokens`. `disclosureKeys` are the control keys that
 * only ask for reasoning output to be returned; keys not among the control keys are ignored.
 */
export function reasoningLayout(
  controlKeys: readonly string[],
  disclosureKeys: readonly string[] = [],
): ReasoningLayout {
  return {
    controlKeys: [...controlKeys],
    disclosureKeys: controlKeys.filter((key) => disclosureKeys.includes(key)),
    effortPaths: [FLAT_EFFORT_PATH, ...controlKeys.map((key) => `${key}.effort`)],
    budgetPaths: controlKeys.map((key) => `${key}.budget_tokens`),
  };
}
