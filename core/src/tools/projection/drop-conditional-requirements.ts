import { acceptsKeyword } from './keyword-policy.js';
import type { ProjectionRule } from './projection-rule.js';
import { CONDITIONAL_KEYWORDS } from './schema-keywords.js';
import { appendToDescription, mapSchemaNodes, withoutKeys } from './schema-nodes.js';

/** The sentence the tool description gains; fixed text, so the model always reads the same instruction. */
export const CONDITIONAL_NOTE =
  'This route cannot express conditional requirements from the original schema. Honor any such requirements documented by the tool when calling it.';

/**
 * `drop-conditional-requirements`: removes the conditional keywords a route refuses
 * (`dependentRequired`, `dependentSchemas`, `dependencies`, `if` / `then` / `else`) wherever they
 * are, and tells the model in the tool description that such requirements exist.
 */
export const dropConditionalRequirements: ProjectionRule = {
  code: 'drop-conditional-requirements',
  apply(draft, rules) {
    const refused = CONDITIONAL_KEYWORDS.filter((keyword) => !acceptsKeyword(rules, keyword));
    if (refused.length === 0) return draft;
    const parameters = mapSchemaNodes(draft.parameters, (node) =>
      refused.some((keyword) => keyword in node) ? withoutKeys(node, refused) : node,
    );
    if (parameters === draft.parameters) return draft;
    return { description: appendToDescription(draft.description, CONDITIONAL_NOTE), parameters };
  },
};
