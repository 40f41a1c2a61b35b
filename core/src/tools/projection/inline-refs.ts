import type { JsonSchema } from '../tool-definition.js';
import { acceptsKeyword } from './keyword-policy.js';
import type { ProjectionRule } from './projection-rule.js';
import { forEachSchemaNode, mapSchemaNodes, mergeSchemas, resolveLocalRef, withoutKeys } from './schema-nodes.js';

const DEFINITION_KEYWORDS = ['$defs', 'definitions'];
// A reference chain can expand exponentially; past this many expansions the tool is left as authored.
const MAX_EXPANSIONS = 1_000;

class CannotInline extends Error {}

/**
 * `inline-refs`: replaces every in-document `$ref` with the schema it points to and drops the
 * definitions, when the route refuses `$ref` or the definitions keyword the tool uses. Recursive or
 * unresolvable references cannot be inlined: the tool is then left as authored (and omitted).
 */
export const inlineRefs: ProjectionRule = {
  code: 'inline-refs',
  apply(draft, rules) {
    const root = draft.parameters;
    const definitionKeys = DEFINITION_KEYWORDS.filter((keyword) => keyword in root);
    const refsRefused = !rules.allows_ref || !acceptsKeyword(rules, '$ref');
    const needed =
      (refsRefused && containsRef(root)) || definitionKeys.some((keyword) => !acceptsKeyword(rules, keyword));
    if (!needed) return draft;
    const budget = { expansions: 0 };
    try {
      const inlined = inlineAll(withoutKeys(root, definitionKeys), root, [], budget);
      return { ...draft, parameters: inlined };
    } catch (error) {
      if (error instanceof CannotInline) return draft;
      throw error;
    }
  },
};

function containsRef(root: JsonSchema): boolean {
  let found = false;
  forEachSchemaNode(root, (node) => {
    if ('$ref' in node) found = true;
  });
  return found;
}

/** `chain` holds the references being expanded above this point: meeting one again is recursion. */
function inlineAll(
  node: JsonSchema,
  root: JsonSchema,
  chain: readonly string[],
  budget: { expansions: number },
): JsonSchema {
  return mapSchemaNodes(node, (current) => {
    const ref = current['$ref'];
    if (ref === undefined) return current;
    if (typeof ref !== 'string' || chain.includes(ref)) throw new CannotInline();
    budget.expansions += 1;
    if (budget.expansions > MAX_EXPANSIONS) throw new CannotInline();
    const target = resolveLocalRef(root, ref);
    if (!target) throw new CannotInline();
    const expanded = inlineAll(withoutKeys(target, DEFINITION_KEYWORDS), root, [...chain, ref], budget);
    // Keywords beside the `$ref` apply together with the target: they merge, the sibling's annotations win.
    const merged = mergeSchemas(withoutKeys(current, ['$ref']), expanded);
    if (!merged) throw new CannotInline();
    return merged;
  });
}
