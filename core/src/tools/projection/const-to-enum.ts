import { isDeepStrictEqual } from 'node:util';
import type { JsonValue } from '../../canonical/canonical-json.js';
import { acceptsKeyword } from './keyword-policy.js';
import type { ProjectionRule } from './projection-rule.js';
import { mapSchemaNodes } from './schema-nodes.js';

/**
 * `const-to-enum`: on a route that refuses `const` but takes `enum`, `"const": c` becomes
 * `"enum": [c]`, the same constraint. Object and array constants, and a `const` outside a sibling
 * `enum`, are left alone.
 */
export const constToEnum: ProjectionRule = {
  code: 'const-to-enum',
  apply(draft, rules) {
    if (acceptsKeyword(rules, 'const') || !acceptsKeyword(rules, 'enum')) return draft;
    const parameters = mapSchemaNodes(draft.parameters, (node) => {
      if (!('const' in node)) return node;
      const value = node['const'] as JsonValue;
      if (typeof value === 'object' && value !== null) return node;
      if (value === null && !rules.enum_allows_null) return node;
      const sibling = node['enum'];
      if (sibling !== undefined && !(Array.isArray(sibling) && sibling.some((item) => isDeepStrictEqual(item, value))))
        return node;
      const rewritten: Record<string, JsonValue> = {};
      for (const [key, item] of Object.entries(node)) {
        if (key === 'enum') continue;
        if (key === 'const') {
          rewritten['enum'] = [value];
        } else {
          rewritten[key] = item;
        }
      }
      return rewritten;
    });
    return parameters === draft.parameters ? draft : { ...draft, parameters };
  },
};
