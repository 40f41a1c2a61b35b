// Validates manifests against the published JSON Schema (docs/manifest.schema.json) with Ajv 2020-12,
// independently of the zod schema it was generated from, and checks that JSON key order is the
// schema's property order (the manifest promises a stable field order).
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

type AddFormats = (ajv: Ajv2020) => Ajv2020;
// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module object.
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

/** A JSON Schema node, as far as these helpers read it. */
export interface SchemaNode {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly anyOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly items?: SchemaNode;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
}

/** The published schema, read from docs/ as a user would. */
export const MANIFEST_JSON_SCHEMA = JSON.parse(
  readFileSync(new URL('../../docs/manifest.schema.json', import.meta.url), 'utf8'),
) as SchemaNode & Record<string, unknown>;

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  compiled = ajv.compile(MANIFEST_JSON_SCHEMA);
  return compiled;
}

/** Asserts that a manifest (an object or its JSON text) validates against docs/manifest.schema.json, in schema key order. */
export function expectValidManifest(json: unknown): void {
  const value = typeof json === 'string' ? (JSON.parse(json) as unknown) : json;
  const validate = validator();
  const valid = validate(value);
  expect(
    valid
      ? []
      : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`),
  ).toEqual([]);
  expect(keyOrderProblems(value, MANIFEST_JSON_SCHEMA, '')).toEqual([]);
}

function keyOrderProblems(value: unknown, node: SchemaNode, path: string): string[] {
  if (Array.isArray(value))
    return node.items
      ? value.flatMap((item, index) => keyOrderProblems(item, node.items as SchemaNode, `${path}/${index}`))
      : [];
  if (typeof value !== 'object' || value === null) return [];
  const branch = objectBranch(node, Object.keys(value));
  if (!branch?.properties) return [];
  const expected = Object.keys(branch.properties).filter((key) => key in value);
  const actual = Object.keys(value);
  const problems =
    JSON.stringify(actual) === JSON.stringify(expected)
      ? []
      : [`${path || '/'} keys ${actual.join(',')} not in schema order ${expected.join(',')}`];
  for (const [key, child] of Object.entries(value)) {
    const childNode = branch.properties[key];
    if (childNode) problems.push(...keyOrderProblems(child, childNode, `${path}/${key}`));
  }
  return problems;
}

/** The object branch of a node (itself, or the anyOf/oneOf branch whose properties hold every key). */
function objectBranch(node: SchemaNode, keys: readonly string[]): SchemaNode | undefined {
  if (node.properties) return node;
  for (const candidate of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    const found = objectBranch(candidate, keys);
    if (found?.properties && keys.every((key) => key in (found.properties ?? {}))) return found;
  }
  return undefined;
}

/** Every property name that can appear inside a section's exact facts, at any depth (for the "no fields" checks). */
export function sectionFieldNames(section: 'session' | 'route' | 'tools' | 'body'): Set<string> {
  const top = MANIFEST_JSON_SCHEMA.properties?.[section];
  if (!top) throw new Error(`no ${section} in the manifest schema`);
  const facts = section === 'session' ? top : objectBranch(top, ['exact'])?.properties?.['exact'];
  if (!facts) throw new Error(`no exact branch for ${section}`);
  const names = new Set<string>();
  const walk = (node: SchemaNode): void => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      names.add(key);
      walk(child);
    }
    for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) walk(branch);
    if (node.items) walk(node.items);
  };
  walk(facts);
  // The availability wrapper's own keys are structure, shared by every section, not fields.
  for (const structural of ['exact', 'unavailable', 'reason', 'detail']) names.delete(structural);
  return names;
}

/** Every object key anywhere in a JSON value. */
export function keysIn(value: unknown): Set<string> {
  const keys = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        keys.add(key);
        walk(child);
      }
    }
  };
  walk(value);
  return keys;
}
