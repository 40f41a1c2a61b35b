import type { JsonSchema } from '../tool-definition.js';
import { acceptsKeyword } from './keyword-policy.js';
import type { ProjectionRule } from './projection-rule.js';
import { isSchemaNode, mapSchemaNodes, mergeSchemas, withoutKeys } from './schema-nodes.js';

/**
 * `merge-all-of`: on a route that refuses `allOf`, a node whose `allOf` branches can be written as
 * one schema (disjoint or agreeing properties, united `required`, no other disagreement) becomes
 * that schema. The common case is a single branch, such as a described reference
 * `{"description": …, "allOf": [{"$ref": …}]}`. A node that cannot merge is left as authored.
 */
export const mergeAllOf: ProjectionRule = {
  code: 'merge-all-of',
  apply(draft, rules) {
    if (acceptsKeyword(rules, 'allOf')) return draft;
    const parameters = mapSchemaNodes(draft.parameters, (node) => {
      const branches = node['allOf'];
      if (!Array.isArray(branches)) return node;
      let merged: JsonSchema | null = withoutKeys(node, ['allOf']);
      for (const branch of branches) {
        if (!isSchemaNode(branch) || merged === null) return node;
        merged = mergeSchemas(merged, branch);
      }
      return merged ?? node;
    });
    return parameters === draft.parameters ? draft : { ...draft, parameters };
  },
};
