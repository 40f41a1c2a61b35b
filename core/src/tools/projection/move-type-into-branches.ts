import type { JsonValue } from '../../canonical/canonical-json.js';
import type { JsonSchema } from '../tool-definition.js';
import type { ProjectionRule } from './projection-rule.js';
import { COMBINATOR_KEYWORDS, isAnnotationKeyword } from './schema-keywords.js';
import { isSchemaNode, mapSchemaNodes, mergeSchemas } from './schema-nodes.js';

// Kept on the outer node: they describe, or they hold definitions other nodes refer to.
const staysOutside = (key: string): boolean => key === '$defs' || key === 'definitions' || isAnnotationKeyword(key);

/**
 * `move-type-into-branches`: on a route that refuses `type` beside a union, `type` and every other
 * assertion beside the union move into each branch (A and (B or C) is (A and B) or (A and C)), so
 * the outer node keeps only its annotations and the union. A branch that disagrees with the outer
 * node, or is a bare reference, stops the rule for that node.
 */
export const moveTypeIntoBranches: ProjectionRule = {
  code: 'move-type-into-branches',
  apply(draft, rules) {
    if (rules.type_beside_combinator) return draft;
    const parameters = mapSchemaNodes(draft.parameters, distribute);
    return parameters === draft.parameters ? draft : { ...draft, parameters };
  },
};

function distribute(node: JsonSchema): JsonSchema {
  const unions = COMBINATOR_KEYWORDS.filter((keyword) => keyword in node);
  if (!('type' in node) || unions.length !== 1) return node;
  const union = unions[0] as string;
  const branches = node[union];
  if (!Array.isArray(branches)) return node;
  const shared: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === union || staysOutside(key)) continue;
    // An empty property map adds nothing to a branch.
    if (key === 'properties' && isSchemaNode(value) && Object.keys(value).length === 0) continue;
    shared[key] = value;
  }
  const merged: JsonSchema[] = [];
  for (const branch of branches) {
    if (!isSchemaNode(branch) || '$ref' in branch) return node;
    const combined = mergeSchemas(branch, shared);
    if (!combined) return node;
    merged.push(combined);
  }
  const rewritten: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === union) rewritten[key] = merged;
    else if (staysOutside(key)) rewritten[key] = value;
  }
  return rewritten;
}
