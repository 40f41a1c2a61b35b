import type { JsonValue } from '../../canonical/canonical-json.js';
import type { JsonSchema } from '../tool-definition.js';
import { acceptsKeyword } from './keyword-policy.js';
import type { ProjectionRule } from './projection-rule.js';
import { COMBINATOR_KEYWORDS, KEYWORDS_BY_TYPE, isAnnotationKeyword } from './schema-keywords.js';
import { isInstanceOf, mapSchemaNodes } from './schema-nodes.js';

const TYPE_SPECIFIC = new Set(Object.values(KEYWORDS_BY_TYPE).flat());

/**
 * `type-list-to-any-of`: on a route that refuses `type` lists, `{"type": ["string", "null"], …}`
 * becomes an `anyOf` with one branch per type, each carrying the keywords that apply to its type
 * (an `enum` is split by value type). Annotations stay on the outer node. A one-item list becomes
 * a plain `type`. A node with keywords that belong to no single type is left alone.
 */
export const typeListToAnyOf: ProjectionRule = {
  code: 'type-list-to-any-of',
  apply(draft, rules) {
    if (rules.allows_type_list || !acceptsKeyword(rules, 'anyOf')) return draft;
    const parameters = mapSchemaNodes(draft.parameters, splitTypeList);
    return parameters === draft.parameters ? draft : { ...draft, parameters };
  },
};

function splitTypeList(node: JsonSchema): JsonSchema {
  const list = node['type'];
  if (!Array.isArray(list)) return node;
  const types = [
    ...new Set(list.filter((item): item is string => typeof item === 'string' && item in KEYWORDS_BY_TYPE)),
  ];
  if (types.length !== list.length || types.length === 0) return node;
  if (types.length === 1) return { ...node, type: types[0] as string };
  if (COMBINATOR_KEYWORDS.some((keyword) => keyword in node) || '$ref' in node) return node;
  const outer: [string, JsonValue][] = [];
  const assertions: [string, JsonValue][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    if (isAnnotationKeyword(key)) outer.push([key, value]);
    else if (key === 'enum' || key === 'const' || TYPE_SPECIFIC.has(key)) assertions.push([key, value]);
    else return node;
  }
  const branches: JsonSchema[] = [];
  for (const type of types) {
    const branch: Record<string, JsonValue> = { type };
    let possible = true;
    for (const [key, value] of assertions) {
      if (key === 'enum') {
        const values = Array.isArray(value) ? value.filter((item) => isInstanceOf(item, type)) : [];
        if (values.length === 0) possible = false;
        else branch['enum'] = values;
      } else if (key === 'const') {
        if (isInstanceOf(value, type)) branch['const'] = value;
        else possible = false;
      } else if (KEYWORDS_BY_TYPE[type]?.includes(key)) {
        branch[key] = value;
      }
    }
    // A branch whose enum or const admits no value of its type admits nothing: dropping it changes nothing.
    if (possible) branches.push(branch);
  }
  if (branches.length === 0) return node;
  const rewritten: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') {
      if (branches.length === 1) Object.assign(rewritten, branches[0]);
      else rewritten['anyOf'] = branches;
    } else if (outer.some(([name]) => name === key)) {
      rewritten[key] = value;
    }
  }
  return rewritten;
}
