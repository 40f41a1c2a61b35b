import { isDeepStrictEqual } from 'node:util';
import type { JsonValue } from '../../canonical/canonical-json.js';
import type { JsonSchema } from '../tool-definition.js';
import {
  SCHEMA_LIST_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  SINGLE_SCHEMA_KEYWORDS,
  isAnnotationKeyword,
} from './schema-keywords.js';

/** Where a subschema sits: a check may treat `additionalProperties: {}` differently from a property `{}`. */
export type NodeSlot = 'root' | 'property' | 'additional-properties' | 'items' | 'branch' | 'definition' | 'other';

/** What a visitor learns about one subschema. */
export interface NodeVisit {
  readonly slot: NodeSlot;
  /** Object schemas on the path from the root, this node included when it is one. */
  readonly objectDepth: number;
}

/** A JSON object (not an array, not null): the only shape projection treats as a schema node. */
export function isSchemaNode(value: JsonValue | undefined): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a node describes objects: `type: "object"` (alone or in a list) or object keywords without a type. */
export function isObjectSchema(node: JsonSchema): boolean {
  const type = node['type'];
  if (type === 'object') return true;
  if (Array.isArray(type)) return type.includes('object');
  return type === undefined && isSchemaNode(node['properties']);
}

function slotOf(keyword: string): NodeSlot {
  if (keyword === 'properties' || keyword === 'patternProperties') return 'property';
  if (keyword === 'additionalProperties') return 'additional-properties';
  if (keyword === 'items' || keyword === 'prefixItems' || keyword === 'additionalItems') return 'items';
  if (keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'allOf') return 'branch';
  if (keyword === '$defs' || keyword === 'definitions') return 'definition';
  return 'other';
}

/** The subschemas directly under one keyword's value, with their slot; values that are not schemas are skipped. */
function childrenOf(keyword: string, value: JsonValue): { readonly node: JsonSchema; readonly slot: NodeSlot }[] {
  const slot = slotOf(keyword);
  if (SINGLE_SCHEMA_KEYWORDS.includes(keyword)) {
    if (isSchemaNode(value)) return [{ node: value, slot }];
    // Draft-07 tuple form: `items` holds a list of schemas.
    if (keyword === 'items' && Array.isArray(value)) return value.filter(isSchemaNode).map((node) => ({ node, slot }));
    return [];
  }
  if (SCHEMA_MAP_KEYWORDS.includes(keyword) && isSchemaNode(value)) {
    return Object.values(value)
      .filter(isSchemaNode)
      .map((node) => ({ node, slot }));
  }
  if (SCHEMA_LIST_KEYWORDS.includes(keyword) && Array.isArray(value))
    return value.filter(isSchemaNode).map((node) => ({ node, slot }));
  return [];
}

/** Visits every subschema top-down, the root first. */
export function forEachSchemaNode(root: JsonSchema, visit: (node: JsonSchema, info: NodeVisit) => void): void {
  const walk = (node: JsonSchema, slot: NodeSlot, parentDepth: number): void => {
    const objectDepth = parentDepth + (isObjectSchema(node) ? 1 : 0);
    visit(node, { slot, objectDepth });
    for (const [keyword, value] of Object.entries(node)) {
      for (const child of childrenOf(keyword, value)) walk(child.node, child.slot, objectDepth);
    }
  };
  walk(root, 'root', 0);
}

function mapValue(
  keyword: string,
  value: JsonValue,
  rewrite: (node: JsonSchema, slot: NodeSlot) => JsonSchema,
): JsonValue {
  const slot = slotOf(keyword);
  const each = (item: JsonValue): JsonValue => (isSchemaNode(item) ? mapSchemaNodes(item, rewrite, slot) : item);
  const mapList = (list: JsonValue[]): JsonValue => {
    const mapped = list.map(each);
    return mapped.some((item, index) => item !== list[index]) ? mapped : list;
  };
  if (SINGLE_SCHEMA_KEYWORDS.includes(keyword)) {
    if (isSchemaNode(value)) return each(value);
    if (keyword === 'items' && Array.isArray(value)) return mapList(value);
    return value;
  }
  if (SCHEMA_MAP_KEYWORDS.includes(keyword) && isSchemaNode(value)) {
    let changed = false;
    const mapped: Record<string, JsonValue> = {};
    for (const [name, child] of Object.entries(value)) {
      const next = each(child);
      if (next !== child) changed = true;
      mapped[name] = next;
    }
    return changed ? mapped : value;
  }
  if (SCHEMA_LIST_KEYWORDS.includes(keyword) && Array.isArray(value)) return mapList(value);
  return value;
}

/**
 * Rewrites every subschema bottom-up (children before their parent). A subtree nothing changed in
 * keeps its identity, so a rule can tell "did nothing" from "rewrote" by comparing references.
 */
export function mapSchemaNodes(
  node: JsonSchema,
  rewrite: (node: JsonSchema, slot: NodeSlot) => JsonSchema,
  slot: NodeSlot = 'root',
): JsonSchema {
  let changed = false;
  const next: Record<string, JsonValue> = {};
  for (const [keyword, value] of Object.entries(node)) {
    const mapped = mapValue(keyword, value, rewrite);
    if (mapped !== value) changed = true;
    next[keyword] = mapped;
  }
  return rewrite(changed ? next : node, slot);
}

/** A copy without the given keys, in the original key order. */
export function withoutKeys(node: JsonSchema, keys: readonly string[]): JsonSchema {
  return Object.fromEntries(Object.entries(node).filter(([key]) => !keys.includes(key)));
}

/** A copy with one key renamed in place (its position kept). */
export function renameKey(node: JsonSchema, from: string, to: string): JsonSchema {
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key === from ? to : key, value]));
}

/** Resolves an in-document reference (`#`, `#/$defs/Name`, `#/definitions/Name`, any JSON pointer); null otherwise. */
export function resolveLocalRef(root: JsonSchema, ref: string): JsonSchema | null {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return null;
  let node: JsonValue = root;
  for (const raw of ref.slice(2).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return null;
    }
    if (Array.isArray(node)) {
      const index = Number(part);
      node = Number.isInteger(index) ? (node[index] ?? null) : null;
    } else if (isSchemaNode(node) && Object.hasOwn(node, part)) {
      node = node[part] ?? null;
    } else {
      return null;
    }
  }
  return isSchemaNode(node) ? node : null;
}

/**
 * The conjunction of two schemas as one node, when that needs no new keyword: keys only one side has
 * are copied, `properties` maps merge when shared names agree, `required` lists unite, annotations
 * keep `base`'s value. Any other disagreement returns null (the caller leaves the schema alone).
 */
export function mergeSchemas(base: JsonSchema, extra: JsonSchema): JsonSchema | null {
  const merged: Record<string, JsonValue> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const existing = merged[key];
    if (existing === undefined) {
      merged[key] = value;
    } else if (key === 'properties' && isSchemaNode(existing) && isSchemaNode(value)) {
      const properties: Record<string, JsonValue> = { ...existing };
      for (const [name, schema] of Object.entries(value)) {
        const current = properties[name];
        if (current !== undefined && !isDeepStrictEqual(current, schema)) return null;
        properties[name] = schema;
      }
      merged[key] = properties;
    } else if (key === 'required' && Array.isArray(existing) && Array.isArray(value)) {
      merged[key] = [...existing, ...value.filter((name) => !existing.includes(name))];
    } else if (isAnnotationKeyword(key)) {
      // The outer node's annotation wins: it is what the author wrote where the model reads it.
    } else if (!isDeepStrictEqual(existing, value)) {
      return null;
    }
  }
  return merged;
}

/** Appends a sentence to a description, separated by a blank line, or returns it alone. */
export function appendToDescription(description: string, text: string): string {
  const trimmed = description.trim();
  return trimmed === '' ? text : `${trimmed}\n\n${text}`;
}

/** The JSON Schema instance type of a literal; integers are reported as `integer`. */
export function instanceTypeOf(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether a literal is an instance of a JSON Schema type name (`integer` counts as a `number`). */
export function isInstanceOf(value: JsonValue, type: string): boolean {
  const actual = instanceTypeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}
