import { isDeepStrictEqual } from 'node:util';
import type { JsonValue } from '../../canonical/canonical-json.js';
import type { JsonSchema } from '../tool-definition.js';
import { acceptsKeyword } from './keyword-policy.js';
import type { ProjectionRule } from './projection-rule.js';
import { isPlainDefsName } from './root-defs.js';
import { isSchemaNode, mapSchemaNodes } from './schema-nodes.js';

const FROM = '#/definitions';
const TO = '#/$defs';

/**
 * `definitions-to-defs`: on a route whose references may only point into the root `$defs`, the
 * draft-07 root `definitions` become `$defs` entries (merged into an existing `$defs`, in authored
 * order) and every `#/definitions/…` reference becomes `#/$defs/…`. Same schemas, same references:
 * nothing about which arguments validate changes. A name that `$defs` cannot hold as written (empty,
 * with `/`, `~` or `%`) or that clashes with a different `$defs` entry stops the rule; `inline-refs`
 * then inlines the references instead.
 */
export const definitionsToDefs: ProjectionRule = {
  code: 'definitions-to-defs',
  apply(draft, rules) {
    if (rules.allows_ref_outside_defs || !rules.allows_ref) return draft;
    if (!acceptsKeyword(rules, '$ref') || !acceptsKeyword(rules, '$defs')) return draft;
    const root = draft.parameters;
    const definitions = root['definitions'];
    const existing = root['$defs'] ?? {};
    if (!isSchemaNode(definitions) || !isSchemaNode(existing)) return draft;
    const defs: Record<string, JsonValue> = { ...existing };
    for (const [name, schema] of Object.entries(definitions)) {
      if (!isPlainDefsName(name)) return draft;
      const current = defs[name];
      if (current !== undefined && !isDeepStrictEqual(current, schema)) return draft;
      defs[name] = schema;
    }
    // `$defs` takes the place of `definitions` (or keeps its own place when the root already had one).
    const moved: Record<string, JsonValue> = {};
    for (const [key, value] of Object.entries(root)) {
      if (key === 'definitions') {
        if (!('$defs' in root)) moved['$defs'] = defs;
      } else {
        moved[key] = key === '$defs' ? defs : value;
      }
    }
    const parameters = mapSchemaNodes(moved, retarget);
    return { ...draft, parameters };
  },
};

function retarget(node: JsonSchema): JsonSchema {
  const ref = node['$ref'];
  if (typeof ref !== 'string' || !(ref === FROM || ref.startsWith(`${FROM}/`))) return node;
  return { ...node, $ref: `${TO}${ref.slice(FROM.length)}` };
}
