import type { JsonValue } from '../../canonical/canonical-json.js';
import type { ProjectionRule } from './projection-rule.js';
import { COMBINATOR_KEYWORDS } from './schema-keywords.js';
import { instanceTypeOf, mapSchemaNodes } from './schema-nodes.js';

/**
 * `infer-literal-type`: on a route that needs every node typed, an untyped `enum` or `const` whose
 * values share one type gets that type (`integer` widens to `number` when both appear). The literal
 * already restricts values to that type, so nothing a caller can send changes.
 */
export const inferLiteralType: ProjectionRule = {
  code: 'infer-literal-type',
  apply(draft, rules) {
    if (!rules.requires_type) return draft;
    const parameters = mapSchemaNodes(draft.parameters, (node) => {
      if (node['type'] !== undefined || '$ref' in node || COMBINATOR_KEYWORDS.some((keyword) => keyword in node))
        return node;
      const values = Array.isArray(node['enum']) ? node['enum'] : 'const' in node ? [node['const'] as JsonValue] : [];
      const type = sharedType(values);
      if (type === null) return node;
      const typed: Record<string, JsonValue> = {};
      let placed = false;
      for (const [key, item] of Object.entries(node)) {
        if (!placed && (key === 'enum' || key === 'const')) {
          typed['type'] = type;
          placed = true;
        }
        typed[key] = item;
      }
      return typed;
    });
    return parameters === draft.parameters ? draft : { ...draft, parameters };
  },
};

function sharedType(values: readonly JsonValue[]): string | null {
  if (values.length === 0) return null;
  const types = new Set(values.map(instanceTypeOf));
  if (types.size === 1) {
    const [only] = types;
    return only === 'string' || only === 'integer' || only === 'number' || only === 'boolean' ? only : null;
  }
  return types.size === 2 && types.has('integer') && types.has('number') ? 'number' : null;
}
