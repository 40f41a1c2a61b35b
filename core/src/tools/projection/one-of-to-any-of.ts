import { acceptsKeyword } from './keyword-policy.js';
import type { ProjectionRule } from './projection-rule.js';
import { mapSchemaNodes, renameKey } from './schema-nodes.js';

/**
 * `one-of-to-any-of`: on a route that refuses `oneOf` but takes `anyOf`, `oneOf` becomes `anyOf`.
 * Tool unions are almost always disjoint (different types or discriminator values), where the two
 * mean the same; a node that already has an `anyOf` is left alone.
 */
export const oneOfToAnyOf: ProjectionRule = {
  code: 'one-of-to-any-of',
  apply(draft, rules) {
    if (acceptsKeyword(rules, 'oneOf') || !acceptsKeyword(rules, 'anyOf')) return draft;
    const parameters = mapSchemaNodes(draft.parameters, (node) =>
      'oneOf' in node && !('anyOf' in node) ? renameKey(node, 'oneOf', 'anyOf') : node,
    );
    return parameters === draft.parameters ? draft : { ...draft, parameters };
  },
};
