import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../canonical/canonical-json.js';
import { SCHEMA_DIALECT_PRESETS, SCHEMA_DIALECTS } from '../schema-dialects.js';
import type { JsonSchema } from '../tool-definition.js';
import type { ToolSchemaRules } from '../tool-schema-rules.js';
import { findViolation } from './find-violation.js';
import { type SchemaProjection, projectSchema } from './project-schema.js';

// Tool catalogs of real MCP servers (captured by scripts/capture-mcp-schemas.mjs) and schemas written
// by hand in the shapes generators emit, projected on every schema dialect. On `mfjs` the result is
// checked against a separate reading of Moonshot's published validator (MoonshotAI/walle, default
// "ultra" level), written here without the projection engine's own helpers.

interface FixtureTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** For hand-written tools: what the MFJS checker below finds in the schema as authored. */
  readonly moonshot_rejects?: readonly string[];
}

interface Fixture {
  readonly server: string;
  readonly version: string | null;
  readonly tools: readonly FixtureTool[];
}

const FIXTURES = new URL('../../../../test/fixtures/mcp-schemas/', import.meta.url);
const CATALOGS: readonly Fixture[] = ['server-everything', 'server-filesystem', 'hand-written'].map(
  (name) => JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as Fixture,
);
const CORPUS = JSON.parse(readFileSync(new URL('./projection-corpus.json', import.meta.url), 'utf8')) as {
  cases: { name: string; schema: JsonSchema }[];
};
const MCP_TOOLS = CATALOGS.flatMap((catalog) => catalog.tools.map((tool) => ({ server: catalog.server, ...tool })));
// The conformance corpus adds the odd shapes real catalogs rarely show (tuples, huge enums, recursion, …).
const ALL_SCHEMAS: readonly { readonly label: string; readonly schema: JsonSchema }[] = [
  ...MCP_TOOLS.map((tool) => ({ label: `${tool.server}/${tool.name}`, schema: tool.inputSchema })),
  ...CORPUS.cases.map((entry) => ({ label: `corpus/${entry.name}`, schema: entry.schema })),
];

const LOOSE = SCHEMA_DIALECT_PRESETS['loose'];
const MFJS = SCHEMA_DIALECT_PRESETS['mfjs'];

function project(schema: JsonSchema, rules: ToolSchemaRules, description = 'A tool.'): SchemaProjection {
  return projectSchema({ description, parameters: schema }, rules);
}

// ---------------------------------------------------------------------------------------------------
// The MFJS contract, read from walle (validator.go, keyword_validators.go, model.go, docs/walle.md):
// the keyword list; `type` never beside `anyOf` or `$ref`; beside either only `description` and
// `title` (and `$defs` / `$id` at the root); no keyword on both an `anyOf` and one of its branches,
// or beside a `$ref` and in what the reference expands to (a chain of bare references, then the
// branches of a union it ends at); `$ref` only `#` or `#/$defs/Name`; `$defs` / `$id` at the root
// only; every other node typed (`{}` means any value at the root and as `additionalProperties`).

type Node = { readonly [key: string]: JsonValue };

const WALLE_KEYWORDS = new Set([
  'type',
  'properties',
  'additionalProperties',
  'items',
  'enum',
  'required',
  'anyOf',
  'description',
  '$defs',
  '$ref',
  'title',
  '$id',
  'default',
  'maxLength',
  'minLength',
  'maximum',
  'minimum',
  'maxItems',
  'minItems',
]);
const COMMON = new Set(['description', 'title']);
const TOP_LEVEL_ONLY = new Set(['$defs', '$id']);

function isNode(value: JsonValue | undefined): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every way a schema breaks the MFJS contract, as `rule@path`; empty when Moonshot would take it. */
function mfjsViolations(root: Node): string[] {
  const found: string[] = [];
  const defs = isNode(root['$defs']) ? root['$defs'] : null;
  const resolve = (ref: string): Node | null => {
    if (ref === '#') return root;
    if (!ref.startsWith('#/$defs/')) return null;
    const name = ref.slice('#/$defs/'.length);
    const target = name === '' || name.includes('/') ? undefined : defs?.[name];
    return isNode(target) ? target : null;
  };
  const expand = (ref: string, at: string): Node | null => {
    let current = resolve(ref);
    const seen = new Set([ref]);
    const kept: Record<string, JsonValue> = {};
    while (current !== null) {
      const next = current['$ref'];
      const bare = Object.keys(current).every((key) => key === '$ref' || COMMON.has(key));
      if (typeof next !== 'string' || !bare || seen.has(next)) break;
      seen.add(next);
      for (const key of COMMON) {
        if (!(key in current)) continue;
        if (key in kept) found.push(`ref-chain-conflict@${at}`);
        kept[key] = current[key] as JsonValue;
      }
      current = resolve(next);
    }
    return current === null ? null : { ...current, ...kept };
  };
  const visit = (node: Node, at: string, place: 'root' | 'additionalProperties' | 'other'): void => {
    const keys = Object.keys(node);
    const atRoot = place === 'root';
    for (const key of keys) {
      if (!WALLE_KEYWORDS.has(key)) found.push(`unsupported-keyword@${at}/${key}`);
      else if (!atRoot && TOP_LEVEL_ONLY.has(key)) found.push(`root-only-keyword@${at}/${key}`);
    }
    const anyOf = node['anyOf'];
    const ref = node['$ref'];
    if ('anyOf' in node || '$ref' in node) {
      if ('type' in node) found.push(`type-beside-anyof-or-ref@${at}`);
      for (const key of keys) {
        if (key === 'type' || key === 'anyOf' || key === '$ref' || COMMON.has(key)) continue;
        if (atRoot && TOP_LEVEL_ONLY.has(key)) continue;
        found.push(`keyword-beside-anyof-or-ref@${at}/${key}`);
      }
      if ('anyOf' in node && '$ref' in node) found.push(`keyword-beside-anyof-or-ref@${at}/$ref`);
    } else if (!('type' in node) && !(keys.length === 0 && place !== 'other')) {
      found.push(`untyped@${at}`);
    }
    if ('anyOf' in node) {
      if (!Array.isArray(anyOf) || anyOf.length === 0) found.push(`anyof-shape@${at}`);
      else
        anyOf.forEach((branch, index) => {
          if (!isNode(branch)) {
            found.push(`anyof-shape@${at}/anyOf/${index}`);
            return;
          }
          if (keys.some((key) => key !== 'anyOf' && key in branch))
            found.push(`anyof-parent-branch-conflict@${at}/anyOf/${index}`);
          visit(branch, `${at}/anyOf/${index}`, 'other');
        });
    }
    if ('$ref' in node) {
      const target = typeof ref === 'string' && ref !== '#' ? expand(ref, at) : null;
      if (typeof ref !== 'string' || (ref !== '#' && target === null)) found.push(`ref-not-into-defs@${at}`);
      if (target !== null) {
        const outer = keys.filter((key) => key !== '$ref');
        if (outer.some((key) => key in target)) found.push(`ref-target-conflict@${at}`);
        const branches = target['anyOf'];
        if (Array.isArray(branches) && branches.some((branch) => isNode(branch) && outer.some((key) => key in branch)))
          found.push(`ref-anyof-branch-conflict@${at}`);
      }
    }
    const properties = node['properties'];
    if (isNode(properties))
      for (const [name, child] of Object.entries(properties))
        if (isNode(child)) visit(child, `${at}/properties/${name}`, 'other');
    const items = node['items'];
    if (isNode(items)) visit(items, `${at}/items`, 'other');
    const extra = node['additionalProperties'];
    if (isNode(extra)) visit(extra, `${at}/additionalProperties`, 'additionalProperties');
    if (atRoot && defs !== null)
      for (const [name, child] of Object.entries(defs)) if (isNode(child)) visit(child, `#/$defs/${name}`, 'other');
  };
  if (root['type'] !== 'object') found.push('root-not-object@#');
  visit(root, '#', 'root');
  return found;
}

/** Every object node with `propertyNames: {"type": "string"}` added where it has none: the same schema. */
function withStringKeys(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(withStringKeys);
  if (!isNode(node)) return node;
  const copy: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(node))
    copy[key] = key === 'enum' || key === 'const' || key === 'default' ? value : withStringKeys(value);
  if (copy['type'] === 'object' && !('propertyNames' in copy)) copy['propertyNames'] = { type: 'string' };
  return copy;
}

function withoutStringKeys(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(withoutStringKeys);
  if (!isNode(node)) return node;
  const copy: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'propertyNames' && isDeepStrictEqual(value, { type: 'string' })) continue;
    copy[key] = key === 'enum' || key === 'const' || key === 'default' ? value : withoutStringKeys(value);
  }
  return copy;
}

/** Projection is total, pure, deterministic, sends only what the route takes, and settles in one pass. */
function expectWellBehaved(schema: JsonSchema, rules: ToolSchemaRules, label: string): SchemaProjection {
  const snapshot = JSON.stringify(schema);
  const first = project(schema, rules, `Tool ${label}.`);
  expect(JSON.stringify(schema), label).toBe(snapshot);
  expect(project(schema, rules, `Tool ${label}.`), label).toEqual(first);
  if (first.outcome === 'omitted') return first;
  const checkedAgainst = first.strict ? rules : { ...LOOSE, name_pattern: rules.name_pattern };
  expect(findViolation(first.draft.parameters, checkedAgainst), label).toBeNull();
  const again = projectSchema(first.draft, rules);
  expect(again.outcome, label).not.toBe('omitted');
  if (again.outcome === 'omitted') return first;
  expect(again.draft, label).toEqual(first.draft);
  expect(again.strict, label).toBe(first.strict);
  if (again.outcome === 'relaxed') expect(again.rules, label).toEqual(['strict-off']);
  return first;
}

describe('MCP corpus: captured catalogs', () => {
  it('holds the pinned reference servers, each with its tools', () => {
    expect(CATALOGS.map((catalog) => [catalog.server, catalog.tools.length > 0])).toEqual([
      ['@modelcontextprotocol/server-everything', true],
      ['@modelcontextprotocol/server-filesystem', true],
      ['hand-written', true],
    ]);
    const root = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    for (const catalog of CATALOGS.filter((entry) => entry.version !== null))
      expect(root.devDependencies[catalog.server], catalog.server).toBe(catalog.version);
  });
});

describe('MCP corpus: every tool on every schema dialect', () => {
  for (const tool of MCP_TOOLS) {
    it(`${tool.server}/${tool.name}: projects without throwing, deterministically and idempotently`, () => {
      for (const dialect of SCHEMA_DIALECTS)
        expectWellBehaved(tool.inputSchema, SCHEMA_DIALECT_PRESETS[dialect], `${tool.name} on ${dialect}`);
    });
  }
});

describe('MCP corpus: the MFJS contract', () => {
  it('the checker finds what Moonshot rejects in each hand-written schema as authored', () => {
    const handWritten = MCP_TOOLS.filter((tool) => tool.moonshot_rejects !== undefined);
    expect(handWritten.length).toBeGreaterThanOrEqual(4);
    for (const tool of handWritten) {
      const rules = new Set(mfjsViolations(tool.inputSchema).map((entry) => entry.split('@')[0]));
      expect([...rules].sort(), tool.name).toEqual([...(tool.moonshot_rejects ?? [])].sort());
    }
    // The three rejections cw used to send as exact or relaxed are all represented.
    const reproduced = new Set(handWritten.flatMap((tool) => tool.moonshot_rejects ?? []));
    for (const rule of ['keyword-beside-anyof-or-ref', 'anyof-parent-branch-conflict', 'ref-not-into-defs'])
      expect(reproduced, rule).toContain(rule);
  });

  it('the checker accepts what MFJS documents as valid', () => {
    expect(
      mfjsViolations({
        type: 'object',
        properties: {
          qs: {
            anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
            description: 'place your query or queries here',
          },
          limit: { type: 'integer', default: 10 },
          linked_list: { $ref: '#/$defs/node', description: 'A list.' },
        },
        $defs: { node: { type: 'object', properties: { value: { type: 'number' } } } },
        additionalProperties: false,
        required: ['qs'],
      }),
    ).toEqual([]);
  });

  for (const { label, schema } of ALL_SCHEMAS) {
    it(`${label}: what cw sends on mfjs (exact or relaxed) breaks no MFJS rule`, () => {
      const result = project(schema, MFJS);
      if (result.outcome === 'omitted') return;
      expect(result.strict).toBe(false);
      expect(mfjsViolations(result.draft.parameters)).toEqual([]);
    });
  }

  it('hand-written tools are all sent on mfjs, relaxed by the rules that settle what Moonshot rejected', () => {
    const outcomes = Object.fromEntries(
      MCP_TOOLS.filter((tool) => tool.moonshot_rejects !== undefined).map((tool) => {
        const result = project(tool.inputSchema, MFJS);
        return [tool.name, result.outcome === 'relaxed' ? result.rules : result.outcome];
      }),
    );
    expect(outcomes).toEqual({
      search_rows: ['siblings-into-branches'],
      read_paths: ['one-description-per-level'],
      copy_range: ['refs-into-root-defs', 'strip-annotations'],
      move_range: ['definitions-to-defs', 'strip-annotations'],
      run_query: ['root-object-type', 'definitions-to-defs', 'strip-annotations', 'siblings-into-branches'],
      open_file: ['siblings-into-branches', 'one-description-per-level'],
      set_env: ['drop-string-property-names', 'strip-annotations'],
      tag_items: [
        'drop-string-property-names',
        'strip-annotations',
        'siblings-into-branches',
        'one-description-per-level',
      ],
    });
  });
});

describe('MCP corpus: propertyNames {"type": "string"}', () => {
  for (const dialect of SCHEMA_DIALECTS) {
    it(`${dialect}: never causes an omission or strict-off, and is gone from what is sent`, () => {
      const rules = SCHEMA_DIALECT_PRESETS[dialect];
      for (const { label, schema } of ALL_SCHEMAS) {
        const plain = project(withoutStringKeys(schema) as JsonSchema, rules);
        const keyed = project(withStringKeys(withoutStringKeys(schema)) as JsonSchema, rules);
        expect(keyed.outcome === 'omitted', label).toBe(plain.outcome === 'omitted');
        if (keyed.outcome === 'omitted' || plain.outcome === 'omitted') {
          expect(keyed, label).toEqual(plain);
          continue;
        }
        expect(keyed.strict, label).toBe(plain.strict);
        expect(keyed.draft, label).toEqual(plain.draft);
        expect(JSON.stringify(keyed.draft.parameters), label).not.toContain('"propertyNames":{"type":"string"}');
      }
    });
  }

  it('the zod 4 records are sent on every dialect, strict wherever the same schema without it is', () => {
    for (const tool of MCP_TOOLS.filter((entry) => JSON.stringify(entry.inputSchema).includes('propertyNames'))) {
      for (const dialect of SCHEMA_DIALECTS) {
        const rules = SCHEMA_DIALECT_PRESETS[dialect];
        const result = project(tool.inputSchema, rules);
        const without = project(withoutStringKeys(tool.inputSchema) as JsonSchema, rules);
        expect(result.outcome, `${tool.name} on ${dialect}`).not.toBe('omitted');
        if (result.outcome === 'relaxed')
          expect(result.rules, `${tool.name} on ${dialect}`).toContain('drop-string-property-names');
        if (result.outcome !== 'omitted' && without.outcome !== 'omitted') expect(result.strict).toBe(without.strict);
      }
    }
  });
});

// Schemas built around what MFJS is strict about: unions with siblings and described branches,
// references of every form (with things beside them, in chains, into definitions and properties),
// zod records. Whatever cw sends on mfjs must pass the checker above.
const leafType = fc.constantFrom('string', 'integer', 'number', 'boolean', 'null');
const note = fc.record(
  { description: fc.constantFrom('Outer.', 'Inner.'), title: fc.constant('T'), default: fc.constant<JsonValue>(null) },
  { requiredKeys: [] },
);
// Now and then a `type` beside a union or a reference, as generators sometimes write it.
const besideType = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 5 },
  { arbitrary: fc.constantFrom<JsonValue>('string', 'object'), weight: 1 },
);
const { mfjsSchema } = fc.letrec<{ mfjsSchema: JsonSchema }>((tie) => {
  const child = tie('mfjsSchema') as fc.Arbitrary<JsonSchema>;
  const leaf = fc.tuple(leafType, note).map(([type, extra]) => ({ ...extra, type }));
  const union = fc
    .tuple(fc.array(child, { minLength: 1, maxLength: 3 }), note, besideType)
    .map(([anyOf, extra, type]) => (type === undefined ? { ...extra, anyOf } : { ...extra, type, anyOf }));
  const object = fc
    .tuple(fc.dictionary(fc.constantFrom('a', 'b', 'c'), child, { maxKeys: 3 }), fc.boolean(), note)
    .map(([properties, keyed, extra]) => ({
      ...extra,
      type: 'object',
      properties,
      ...(keyed ? { propertyNames: { type: 'string' } } : {}),
    }));
  const ref = fc
    .tuple(
      fc.constantFrom('#/$defs/A', '#/$defs/B', '#/definitions/C', '#/properties/a', '#/$defs/A/properties/a'),
      note,
      besideType,
    )
    .map(([$ref, extra, type]) => (type === undefined ? { ...extra, $ref } : { ...extra, type, $ref }));
  return {
    mfjsSchema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: leaf, weight: 4 },
      { arbitrary: union, weight: 3 },
      { arbitrary: object, weight: 2 },
      { arbitrary: ref, weight: 2 },
    ),
  };
});
// Definitions that end in something concrete (a leaf, an object of leaves or a chain to one), so most
// references resolve without recursion; `B` is a described reference to `A`, a chain of two.
const definition = fc.oneof(
  fc.tuple(leafType, note).map(([type, extra]): JsonSchema => ({ ...extra, type })),
  fc.tuple(fc.dictionary(fc.constantFrom('a', 'b'), fc.tuple(leafType, note), { minKeys: 1, maxKeys: 2 }), note).map(
    ([fields, extra]): JsonSchema => ({
      ...extra,
      type: 'object',
      properties: Object.fromEntries(Object.entries(fields).map(([name, [type, inner]]) => [name, { ...inner, type }])),
    }),
  ),
  fc
    .tuple(fc.array(fc.tuple(leafType, note), { minLength: 1, maxLength: 2 }), note)
    .map(
      ([branches, extra]): JsonSchema => ({ ...extra, anyOf: branches.map(([type, inner]) => ({ ...inner, type })) }),
    ),
);
const mfjsRoot = fc
  .tuple(
    fc.dictionary(fc.constantFrom('a', 'b', 'c'), mfjsSchema, { minKeys: 1, maxKeys: 3 }),
    definition,
    note,
    fc.oneof(definition, mfjsSchema),
  )
  .map(
    ([properties, a, bNote, c]): JsonSchema => ({
      type: 'object',
      properties,
      $defs: { A: a, B: { ...bNote, $ref: '#/$defs/A' } },
      definitions: { C: c },
    }),
  );

describe('MCP corpus: generated MFJS shapes', () => {
  it('whatever cw sends on mfjs breaks no MFJS rule, and projecting it again changes nothing', () => {
    fc.assert(
      fc.property(mfjsRoot, (parameters) => {
        const result = expectWellBehaved(parameters, MFJS, 'generated');
        if (result.outcome === 'omitted') return;
        expect(mfjsViolations(result.draft.parameters)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
