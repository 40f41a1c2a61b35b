import type { JsonSchema } from '../tool-definition.js';
import type { ProjectionRule } from './projection-rule.js';
import { pointsIntoRootDefs, ROOT_ONLY_KEYWORDS } from './root-defs.js';
import { expandRefs } from './expand-refs.js';
import { forEachSchemaNode, mapSchemaNodes, withoutKeys } from './schema-nodes.js';

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
    const inlined = expandRefs(root, root, {
      keep: (ref) => typeof ref !== 'string' || pointsIntoRootDefs(root, ref),
      stripFromTargets: ROOT_ONLY_KEYWORDS,
    });
    if (inlined === null) return draft;
    const parameters = mapSchemaNodes(inlined, (node, slot) =>
      slot !== 'root' && ROOT_ONLY_KEYWORDS.some((key) => key in node) ? withoutKeys(node, ROOT_ONLY_KEYWORDS) : node,
    );
    return parameters === root ? draft : { ...draft, parameters };
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
