import type { JsonValue } from '../../canonical/canonical-json.js';
import { acceptsKeyword } from './keyword-policy.js';
import type { ProjectionRule } from './projection-rule.js';
import { mapSchemaNodes } from './schema-nodes.js';

/**
 * `tuple-to-prefix-items`: draft-07 tuples (`items` as a list, `additionalItems` for the rest) are
 * rewritten in their 2020-12 spelling (`prefixItems`, `items`) for routes that validate 2020-12.
 */
export const tupleToPrefixItems: ProjectionRule = {
  code: 'tuple-to-prefix-items',
  apply(draft, rules) {
    if (rules.allows_tuple_items || !acceptsKeyword(rules, 'prefixItems')) return draft;
    const parameters = mapSchemaNodes(draft.parameters, (node) => {
      if (!Array.isArray(node['items']) || 'prefixItems' in node) return node;
      const rewritten: Record<string, JsonValue> = {};
      for (const [key, value] of Object.entries(node)) {
        if (key === 'additionalItems') continue;
        if (key === 'items') {
          rewritten['prefixItems'] = value;
          const rest = node['additionalItems'];
          if (rest !== undefined) rewritten['items'] = rest;
        } else {
          rewritten[key] = value;
        }
      }
      return rewritten;
    });
    return parameters === draft.parameters ? draft : { ...draft, parameters };
  },
};
