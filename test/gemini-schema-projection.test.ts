// The Gemini routes' tool-schema rules (`gemini-json-schema`, registered as row data by
// @cw/provider-google) against the published description: the keywords they let through are the
// ones the discovery document lists for the API's JSON Schema input, and every schema a Gemini
// route sends — the conformance corpus and real MCP catalogs — uses only those, as a checker
// written here from that list (not from the engine's rule data) finds. Outcomes are pinned per case.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capabilityRowSchema, type CapabilityRow } from '../core/src/route/capability-row.js';
import { projectTools } from '../core/src/tools/project-tools.js';
import type { ToolOutcome } from '../core/src/tools/tool-projection-types.js';
import type { JsonSchema, ToolDefinition } from '../core/src/tools/tool-definition.js';
import { GEMINI_JSON_SCHEMA } from '../plugins/provider-google/src/gemini-json-schema.js';
import { GEMINI_ROW } from '../plugins/provider-google/src/google-capability-rows.js';
import { REPO_ROOT } from './support/cw-fixture.js';

const read = (path: string): unknown => JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8'));
const corpus = read('core/src/tools/projection/projection-corpus.json') as {
  cases: { name: string; schema: JsonSchema }[];
};
const pinned = read('test/fixtures/projection/gemini-json-schema-outcomes.json') as {
  expect: Record<string, 'exact' | string[]>;
};
const requestSchema = read('test/fixtures/specs/gemini-generate-content-request.schema.json') as {
  $defs: { GenerationConfig: { properties: { _responseJsonSchema: { description: string } } } };
};

/** The keywords the discovery document says the API's JSON Schema input supports, read from its text. */
function documentedKeywords(): Set<string> {
  const text = requestSchema.$defs.GenerationConfig.properties._responseJsonSchema.description;
  const list = text.slice(
    text.indexOf('only the following properties are supported'),
    text.indexOf('The non-standard'),
  );
  const keywords = [...list.matchAll(/`(\$?[A-Za-z]+)`/g)].map((match) => match[1] as string);
  // "The non-standard `propertyOrdering` property may also be set."
  return new Set([...keywords, 'propertyOrdering']);
}
const DOCUMENTED = documentedKeywords();

const row: CapabilityRow = { ...capabilityRowSchema.parse(GEMINI_ROW), plugin: '@cw/provider-google' };

function tool(name: string, schema: JsonSchema, description = `Tool ${name}.`): ToolDefinition {
  return { name, description, input_schema: schema, origin: { kind: 'mcp', server: 'corpus' }, deferred: false };
}

function asExpectation(outcome: ToolOutcome): 'exact' | string[] {
  if (outcome.outcome === 'exact') return 'exact';
  if (outcome.outcome === 'relaxed') return ['relaxed', ...outcome.rules];
  return ['omitted', outcome.reason];
}

type Node = { [key: string]: unknown };
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Problems a Gemini route would have with a schema, from the published list: a keyword outside it
 * (a `$ref` is inside it, but cw inlines references, so one left over is a problem too), `oneOf`,
 * which the API reads as `anyOf`, a type list, `null` in an enum, a root that is not an object.
 */
function geminiProblems(schema: JsonSchema): string[] {
  const problems: string[] = [];
  if (schema['type'] !== 'object') problems.push('/ is not type object');
  const walk = (node: unknown, path: string): void => {
    if (!isNode(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (!DOCUMENTED.has(key) || key.startsWith('$') || key === 'oneOf') problems.push(`${path}/${key}`);
      if (key === 'type' && typeof value !== 'string') problems.push(`${path}/type is a list`);
      if (key === 'enum' && Array.isArray(value) && value.includes(null)) problems.push(`${path}/enum holds null`);
    }
    if (isNode(node['properties'])) {
      for (const [name, child] of Object.entries(node['properties'])) walk(child, `${path}/properties/${name}`);
    }
    walk(node['items'], `${path}/items`);
    if (isNode(node['additionalProperties'])) walk(node['additionalProperties'], `${path}/additionalProperties`);
    for (const key of ['anyOf', 'prefixItems']) {
      const list = node[key];
      if (Array.isArray(list)) for (const [index, child] of list.entries()) walk(child, `${path}/${key}/${index}`);
    }
  };
  walk(schema, '');
  return problems;
}

describe('the gemini-json-schema rules', () => {
  it('let through only keywords the discovery document lists', () => {
    expect(DOCUMENTED.size).toBeGreaterThan(15);
    for (const keyword of GEMINI_JSON_SCHEMA.allow_keywords ?? []) expect(DOCUMENTED.has(keyword), keyword).toBe(true);
    // References are inlined rather than sent.
    expect(GEMINI_JSON_SCHEMA.allows_ref).toBe(false);
  });

  it('the checker catches what the published list leaves out', () => {
    expect(geminiProblems({ type: 'object', properties: { a: { type: 'string', pattern: '^a' } } })).toEqual([
      '/properties/a/pattern',
    ]);
    expect(geminiProblems({ type: 'object', properties: { a: { type: ['string', 'null'] } } })).toEqual([
      '/properties/a/type is a list',
    ]);
    expect(geminiProblems({ type: 'object', properties: { a: { oneOf: [{ type: 'string' }] } } })).toEqual([
      '/properties/a/oneOf',
    ]);
  });
});

describe('the projection corpus on a Gemini route', () => {
  it('pins an outcome for every case', () => {
    expect(Object.keys(pinned.expect).sort()).toEqual(corpus.cases.map((entry) => entry.name).sort());
  });

  for (const entry of corpus.cases) {
    it(`${entry.name}: the pinned outcome; what is sent passes the published list; projecting again changes nothing`, () => {
      const projection = projectTools({
        row,
        tools: [tool(entry.name, entry.schema)],
        toolChoice: 'auto',
        reasoningActive: false,
      });
      const [outcome] = projection.outcomes;
      expect(asExpectation(outcome as ToolOutcome)).toEqual(pinned.expect[entry.name]);
      const [spec] = projection.wireTools;
      if (outcome?.outcome === 'omitted') {
        expect(spec).toBeUndefined();
        return;
      }
      if (spec === undefined) throw new Error('sent nothing');
      expect(geminiProblems(spec.parameters)).toEqual([]);
      const again = projectTools({
        row,
        tools: [tool(entry.name, spec.parameters, spec.description)],
        toolChoice: 'auto',
        reasoningActive: false,
      });
      expect(again.outcomes[0]?.outcome).toBe('exact');
      expect(again.wireTools).toEqual([spec]);
    });
  }
});

describe('real MCP catalogs on a Gemini route', () => {
  for (const file of ['server-everything.json', 'server-filesystem.json', 'hand-written.json']) {
    it(`${file}: every tool sent uses only the published keywords`, () => {
      const catalog = read(`test/fixtures/mcp-schemas/${file}`) as {
        tools: { name: string; inputSchema: JsonSchema }[];
      };
      const projection = projectTools({
        row,
        tools: catalog.tools.map((entry) => tool(entry.name, entry.inputSchema)),
        toolChoice: 'auto',
        reasoningActive: false,
      });
      expect(projection.wireTools.length).toBeGreaterThan(0);
      for (const spec of projection.wireTools) expect(geminiProblems(spec.parameters), spec.name).toEqual([]);
    });
  }
});
