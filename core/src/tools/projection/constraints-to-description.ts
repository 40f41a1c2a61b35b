import type { JsonValue } from '../../canonical/canonical-json.js';
import { acceptsFormat, acceptsKeyword } from './keyword-policy.js';
import type { ProjectionRule } from './projection-rule.js';
import { CONSTRAINT_KEYWORDS } from './schema-keywords.js';
import { mapSchemaNodes } from './schema-nodes.js';

/**
 * `constraints-to-description`: value constraints the route refuses (`format`, or a `format` value
 * outside its list, `pattern`, length and range bounds, …) leave the schema and are written into that node's description, e.g.
 * `(constraints: pattern "^[a-z]+$", maxLength 64)`. The model still reads them; the tool, which
 * validates its own arguments, still enforces them.
 */
export const constraintsToDescription: ProjectionRule = {
  code: 'constraints-to-description',
  apply(draft, rules) {
    if (!acceptsKeyword(rules, 'description')) return draft;
    const parameters = mapSchemaNodes(draft.parameters, (node) => {
      const refused = CONSTRAINT_KEYWORDS.filter(
        (keyword) =>
          keyword in node &&
          (!acceptsKeyword(rules, keyword) || (keyword === 'format' && !acceptsFormat(rules, node[keyword]))),
      );
      if (refused.length === 0) return node;
      const note = `(constraints: ${refused.map((keyword) => `${keyword} ${JSON.stringify(node[keyword])}`).join(', ')})`;
      const existing = typeof node['description'] === 'string' ? node['description'].trim() : '';
      const rewritten: Record<string, JsonValue> = {};
      for (const [key, value] of Object.entries(node))
        if (!refused.includes(key) && key !== 'description') rewritten[key] = value;
      rewritten['description'] = existing === '' ? note : `${existing} ${note}`;
      return rewritten;
    });
    return parameters === draft.parameters ? draft : { ...draft, parameters };
  },
};
