import type { JsonValue } from '../../canonical/canonical-json.js';
import type { ProjectionRule } from './projection-rule.js';
import { mapSchemaNodes, withoutKeys } from './schema-nodes.js';

/**
 * Keywords that may stand beside `type: "string"` in a key schema and leave it always true: pure
 * annotations, which no validator lets change which instances are valid. Kept narrower than the
 * projection's annotation list on purpose: `$id` and `$anchor` can be reference targets, `$schema`
 * is a resource root's, and draft-07 lets validators assert `contentMediaType` and `contentEncoding`
 * (docs/capability-rows.md, `drop-string-property-names`).
 */
const PURE_ANNOTATIONS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

/**
 * Whether a `propertyNames` schema is `{"type": "string"}` (what zod 4 writes for a record), alone or
 * with pure annotations. A JSON object's keys are always strings, so it holds for every object there
 * is: removing it changes nothing about which arguments validate.
 */
function isAnyStringKey(value: JsonValue | undefined): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return value['type'] === 'string' && Object.keys(value).every((key) => key === 'type' || PURE_ANNOTATIONS.has(key));
}

/**
 * `drop-string-property-names`: removes an always-true `propertyNames` (`{"type": "string"}`, perhaps
 * with a description, title or other pure annotation) wherever it is, on every route. The schema then
 * accepts exactly what it accepted before; routes that refuse `propertyNames` would otherwise omit
 * the tool (or send it non-strict) for a constraint that says nothing. Any other `propertyNames`
 * (a pattern, a length, an enum, a format) is left alone.
 */
export const dropStringPropertyNames: ProjectionRule = {
  code: 'drop-string-property-names',
  apply(draft) {
    const parameters = mapSchemaNodes(draft.parameters, (node) =>
      isAnyStringKey(node['propertyNames']) ? withoutKeys(node, ['propertyNames']) : node,
    );
    return parameters === draft.parameters ? draft : { ...draft, parameters };
  },
};
