import { isDeepStrictEqual } from 'node:util';
import type { JsonValue } from '../../canonical/canonical-json.js';
import type { JsonSchema } from '../tool-definition.js';
import type { ProjectionRule } from './projection-rule.js';
import { isAnnotationKeyword } from './schema-keywords.js';
import { appendToDescription, isSchemaNode, resolveLocalRef, withoutKeys } from './schema-nodes.js';

// Checked in this order, so the note reads the same whichever order the author wrote them in.
const ROOT_UNIONS = ['oneOf', 'anyOf', 'allOf'] as const;
// What a branch may hold for its meaning to survive flattening: object members and annotations.
const OBJECT_MEMBERS = new Set(['type', 'properties', 'required', 'additionalProperties']);

const LEAD: Record<'oneOf' | 'anyOf', string> = {
  oneOf: 'Exactly one of these parameter groups must be provided',
  anyOf: 'At least one of these parameter groups must be provided',
};

/**
 * `flatten-root-union`: a route that refuses `oneOf` / `anyOf` / `allOf` at the root gets one object
 * whose properties are every branch's properties. `allOf` branches' required lists unite (same
 * meaning); for `oneOf` / `anyOf` the choice between required groups moves into the tool
 * description as a sentence, since the schema can no longer say it. A property two branches define
 * differently becomes an `anyOf` of both. Branches that are not plain objects stop the rule.
 */
export const flattenRootUnion: ProjectionRule = {
  code: 'flatten-root-union',
  apply(draft, rules) {
    const root = draft.parameters;
    if (rules.allows_root_combinators || !ROOT_UNIONS.some((keyword) => keyword in root)) return draft;
    if (root['type'] !== undefined && root['type'] !== 'object') return draft;
    const properties: Record<string, JsonValue> = isSchemaNode(root['properties']) ? { ...root['properties'] } : {};
    const fromRoot = new Set(Object.keys(properties));
    const required = stringList(root['required']);
    const notes: string[] = [];
    let everyBranchClosed = true;
    for (const keyword of ROOT_UNIONS) {
      const list = root[keyword];
      if (list === undefined) continue;
      if (!Array.isArray(list)) return draft;
      const groups = new Set<string>();
      for (const item of list) {
        const branch = branchSchema(item, root);
        if (!branch) return draft;
        if (branch['additionalProperties'] !== false) everyBranchClosed = false;
        for (const [name, schema] of Object.entries(isSchemaNode(branch['properties']) ? branch['properties'] : {})) {
          if (fromRoot.has(name)) continue; // the root's own definition wins
          properties[name] = combine(properties[name], schema);
        }
        const branchRequired = stringList(branch['required']);
        if (keyword === 'allOf') {
          for (const name of branchRequired) if (!required.includes(name)) required.push(name);
        } else if (branchRequired.length > 0) {
          groups.add(
            [...new Set(branchRequired)]
              .sort()
              .map((name) => `\`${name}\``)
              .join(' + '),
          );
        }
      }
      if (keyword !== 'allOf' && groups.size >= 2) notes.push(`${LEAD[keyword]}: ${[...groups].sort().join(' | ')}.`);
    }
    const flattened: Record<string, JsonValue> = { type: 'object', ...withoutKeys(root, [...ROOT_UNIONS, 'required']) };
    flattened['properties'] = properties;
    const kept = required.filter((name) => name in properties);
    if (kept.length > 0) flattened['required'] = kept;
    if (root['additionalProperties'] === undefined && everyBranchClosed) flattened['additionalProperties'] = false;
    const description =
      notes.length === 0 ? draft.description : appendToDescription(draft.description, notes.join(' '));
    return { description, parameters: flattened };
  },
};

/** A branch as an object schema (an in-document reference is followed once), or null when it is not one. */
function branchSchema(item: JsonValue, root: JsonSchema): JsonSchema | null {
  if (!isSchemaNode(item)) return null;
  let branch: JsonSchema = item;
  const ref = item['$ref'];
  if (typeof ref === 'string') {
    const target = resolveLocalRef(root, ref);
    if (!target || target === root || Object.keys(item).length > 1) return null;
    branch = target;
  }
  if (branch['type'] !== undefined && branch['type'] !== 'object') return null;
  return Object.keys(branch).every((key) => OBJECT_MEMBERS.has(key) || isAnnotationKeyword(key)) ? branch : null;
}

/** One property defined by two branches: kept when they agree, otherwise either definition is accepted. */
function combine(existing: JsonValue | undefined, schema: JsonValue): JsonValue {
  if (existing === undefined || isDeepStrictEqual(existing, schema)) return schema;
  const options =
    isSchemaNode(existing) && Array.isArray(existing['anyOf']) && Object.keys(existing).length === 1
      ? existing['anyOf']
      : [existing];
  if (options.some((option) => isDeepStrictEqual(option, schema))) return existing;
  return { anyOf: [...options, schema] };
}

function stringList(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
