import type { JsonSchema } from '../tool-definition.js';
import { acceptsKeyword } from './keyword-policy.js';
import type { ProjectionRule } from './projection-rule.js';
import { expandRefs } from './expand-refs.js';
import { forEachSchemaNode, withoutKeys } from './schema-nodes.js';

const DEFINITION_KEYWORDS = ['$defs', 'definitions'];

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
    const inlined = expandRefs(withoutKeys(root, definitionKeys), root, {
      keep: (ref) => ref === undefined,
      stripFromTargets: DEFINITION_KEYWORDS,
    });
    return inlined === null ? draft : { ...draft, parameters: inlined };
  },
};

function containsRef(root: JsonSchema): boolean {
  let found = false;
  forEachSchemaNode(root, (node) => {
    if ('$ref' in node) found = true;
  });
  return found;
}
