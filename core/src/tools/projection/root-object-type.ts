import type { ProjectionRule } from './projection-rule.js';

/**
 * `root-object-type`: a root without `type` gets `type: "object"`. Tool arguments are always a JSON
 * object, so saying so excludes nothing a caller could send; routes that require the root to be an
 * object reject a root that leaves it unsaid.
 */
export const rootObjectType: ProjectionRule = {
  code: 'root-object-type',
  apply(draft, rules) {
    if (!rules.root_must_be_object || draft.parameters['type'] !== undefined) return draft;
    return { ...draft, parameters: { type: 'object', ...draft.parameters } };
  },
};
