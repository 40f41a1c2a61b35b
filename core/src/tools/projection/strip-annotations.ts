import { acceptsKeyword } from './keyword-policy.js';
import type { ProjectionRule } from './projection-rule.js';
import { isAnnotationKeyword } from './schema-keywords.js';
import { mapSchemaNodes, withoutKeys } from './schema-nodes.js';

/**
 * `strip-annotations`: removes annotations the route refuses (`title`, `examples`, `default`,
 * `$schema`, …) and unknown keywords (vendor extensions such as `x-order`), which validators ignore
 * anyway. `description` is never removed: it is how the model learns what a parameter means.
 */
export const stripAnnotations: ProjectionRule = {
  code: 'strip-annotations',
  apply(draft, rules) {
    const parameters = mapSchemaNodes(draft.parameters, (node) => {
      const refused = Object.keys(node).filter(
        (key) => key !== 'description' && !acceptsKeyword(rules, key) && isAnnotationKeyword(key),
      );
      return refused.length === 0 ? node : withoutKeys(node, refused);
    });
    return parameters === draft.parameters ? draft : { ...draft, parameters };
  },
};
