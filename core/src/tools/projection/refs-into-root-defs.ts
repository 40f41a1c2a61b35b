import type { JsonSchema } from '../tool-definition.js';
import type { ProjectionRule } from './projection-rule.js';
import { pointsIntoRootDefs, ROOT_ONLY_KEYWORDS } from './root-defs.js';
import { forEachSchemaNode, mapSchemaNodes, mergeSchemas, resolveLocalRef, withoutKeys } from './schema-nodes.js';

// A reference chain can expand exponentially; past this many expansions the tool is left as authored.
const MAX_EXPANSIONS = 1_000;

class CannotInline extends Error {}

/**
 * `refs-into-root-defs`: on a route whose references may only point at an entry of the root `$defs`
 * (`#/$defs/Name`) or at the root (`#`), every other in-document reference (`#/properties/…`, a path
 * into a definition, a nested `$defs`) is replaced by the schema it points to, as `inline-refs` does;
 * references into the root `$defs` stay. Then `$defs`, `definitions` and `$id` below the root, which
 * nothing refers to any more, are dropped. A recursive or unresolvable reference stops the rule: the
 * tool is left as authored (and omitted with `ref-outside-defs`).
 */
export const refsIntoRootDefs: ProjectionRule = {
  code: 'refs-into-root-defs',
  apply(draft, rules) {
    if (rules.allows_ref_outside_defs || !rules.allows_ref) return draft;
    const root = draft.parameters;
    if (!needed(root)) return draft;
    const budget = { expansions: 0 };
    try {
      const inlined = inlineOutside(root, root, [], budget);
      const parameters = mapSchemaNodes(inlined, (node, slot) =>
        slot !== 'root' && ROOT_ONLY_KEYWORDS.some((key) => key in node) ? withoutKeys(node, ROOT_ONLY_KEYWORDS) : node,
      );
      return parameters === root ? draft : { ...draft, parameters };
    } catch (error) {
      if (error instanceof CannotInline) return draft;
      throw error;
    }
  },
};

function needed(root: JsonSchema): boolean {
  let found = false;
  forEachSchemaNode(root, (node, info) => {
    const ref = node['$ref'];
    if (typeof ref === 'string' && !pointsIntoRootDefs(root, ref)) found = true;
    if (info.slot !== 'root' && ROOT_ONLY_KEYWORDS.some((key) => key in node)) found = true;
  });
  return found;
}

/** `chain` holds the references being expanded above this point: meeting one again is recursion. */
function inlineOutside(
  node: JsonSchema,
  root: JsonSchema,
  chain: readonly string[],
  budget: { expansions: number },
): JsonSchema {
  return mapSchemaNodes(node, (current) => {
    const ref = current['$ref'];
    if (typeof ref !== 'string' || pointsIntoRootDefs(root, ref)) return current;
    if (chain.includes(ref)) throw new CannotInline();
    budget.expansions += 1;
    if (budget.expansions > MAX_EXPANSIONS) throw new CannotInline();
    const target = resolveLocalRef(root, ref);
    if (!target) throw new CannotInline();
    const expanded = inlineOutside(withoutKeys(target, ROOT_ONLY_KEYWORDS), root, [...chain, ref], budget);
    // Keywords beside the `$ref` apply together with the target: they merge, the sibling's annotations win.
    const merged = mergeSchemas(withoutKeys(current, ['$ref']), expanded);
    if (!merged) throw new CannotInline();
    return merged;
  });
}
