import type { JsonValue } from '../../canonical/canonical-json.js';
import type { JsonSchema } from '../tool-definition.js';
import { mapSchemaNodes, mergeSchemas, resolveLocalRef, withoutKeys } from './schema-nodes.js';

// A reference chain can expand exponentially; past this many expansions the tool is left as authored.
const MAX_EXPANSIONS = 1_000;

class CannotExpand extends Error {}

/** Which `$ref`s to expand, and what to strip from the schemas they point to. */
export interface ExpandRefsOptions {
  /** True for a `$ref` value that stays as it is (absent, or one the route accepts). */
  readonly keep: (ref: JsonValue | undefined) => boolean;
  /** Keywords removed from each expanded target (the definitions it carried). */
  readonly stripFromTargets: readonly string[];
}

/**
 * Replaces the in-document `$ref`s `keep` does not keep with the schemas they point to, recursively;
 * keywords beside a `$ref` merge with its target, the sibling's annotations winning. Returns null when
 * that cannot be done: a recursive or unresolvable reference, a non-string one, a merge conflict, or
 * more than MAX_EXPANSIONS expansions. `inline-refs` and `refs-into-root-defs` differ only in options.
 */
export function expandRefs(node: JsonSchema, root: JsonSchema, options: ExpandRefsOptions): JsonSchema | null {
  try {
    return expand(node, root, options, [], { expansions: 0 });
  } catch (error) {
    if (error instanceof CannotExpand) return null;
    throw error;
  }
}

/** `chain` holds the references being expanded above this point: meeting one again is recursion. */
function expand(
  node: JsonSchema,
  root: JsonSchema,
  options: ExpandRefsOptions,
  chain: readonly string[],
  budget: { expansions: number },
): JsonSchema {
  return mapSchemaNodes(node, (current) => {
    const ref = current['$ref'];
    if (options.keep(ref)) return current;
    if (typeof ref !== 'string' || chain.includes(ref)) throw new CannotExpand();
    budget.expansions += 1;
    if (budget.expansions > MAX_EXPANSIONS) throw new CannotExpand();
    const target = resolveLocalRef(root, ref);
    if (!target) throw new CannotExpand();
    const expanded = expand(withoutKeys(target, options.stripFromTargets), root, options, [...chain, ref], budget);
    const merged = mergeSchemas(withoutKeys(current, ['$ref']), expanded);
    if (!merged) throw new CannotExpand();
    return merged;
  });
}
