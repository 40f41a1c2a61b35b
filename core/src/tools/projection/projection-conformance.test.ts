import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../canonical/canonical-json.js';
import { capabilityRowSchema, type CapabilityRow, type CapabilityRowInput } from '../../route/capability-row.js';
import { projectTools } from '../project-tools.js';
import type { ToolOutcome } from '../tool-projection-types.js';
import { SCHEMA_DIALECT_PRESETS, SCHEMA_DIALECTS, type SchemaDialect } from '../schema-dialects.js';
import type { JsonSchema, ToolDefinition } from '../tool-definition.js';
import { findViolation } from './find-violation.js';

type Expectation = 'exact' | ['relaxed', ...string[]] | ['omitted', string];

interface CorpusCase {
  readonly name: string;
  readonly why: string;
  readonly schema: JsonSchema;
  readonly expect: Record<SchemaDialect, Expectation>;
}

const corpus = JSON.parse(readFileSync(new URL('./projection-corpus.json', import.meta.url), 'utf8')) as {
  dialects: SchemaDialect[];
  cases: CorpusCase[];
};

/** A row on the given schema dialect; everything else is irrelevant to projection. */
function rowFor(dialect: SchemaDialect): CapabilityRow {
  const input: CapabilityRowInput = {
    provider_id: 'conformance',
    provider_display: 'Conformance',
    route_id: `conformance-${dialect}`,
    dialect: 'chat-completions',
    route_shape: 'standard',
    endpoint: { base_url: 'http://127.0.0.1:9/v1', path: '/chat/completions' },
    auth: { scheme: 'none', api_key_env: null },
    model: { default: 'conformance-model' },
    context: { window_tokens: 128_000, source: 'fallback' },
    output_cap: { field: 'max_tokens', default_tokens: 4_096 },
    billing: { kind: 'unknown' },
    tool_schema: { dialect },
    tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
    reasoning: null,
    provenance: { source: 'conformance test' },
  };
  return { ...capabilityRowSchema.parse(input), plugin: 'conformance' };
}

function toolOf(entry: CorpusCase): ToolDefinition {
  return {
    name: entry.name,
    description: `Corpus tool: ${entry.why}.`,
    input_schema: entry.schema,
    origin: { kind: 'mcp', server: 'corpus' },
    deferred: false,
  };
}

function asExpectation(outcome: ToolOutcome): Expectation {
  switch (outcome.outcome) {
    case 'exact':
      return 'exact';
    case 'relaxed':
      return ['relaxed', ...outcome.rules];
    case 'omitted':
      return ['omitted', outcome.reason];
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}

// Unknown keywords allowed, as an API's schema checker does. Draft-07 tuples only compile as draft-07.
const ajv2020 = new Ajv2020({ strict: false, validateFormats: false });
const ajv07 = new Ajv({ strict: false, validateFormats: false });

function compiles(schema: JsonSchema): void {
  const text = JSON.stringify(schema);
  const { $schema: _declared, ...body } = schema;
  (text.includes('"items":[') ? ajv07 : ajv2020).compile(body);
}

describe('projection conformance corpus', () => {
  it('covers every shipped schema dialect in every case', () => {
    expect([...corpus.dialects].sort()).toEqual([...SCHEMA_DIALECTS].sort());
    for (const entry of corpus.cases)
      expect(Object.keys(entry.expect).sort(), entry.name).toEqual([...SCHEMA_DIALECTS].sort());
  });

  for (const dialect of SCHEMA_DIALECTS) {
    describe(dialect, () => {
      const row = rowFor(dialect);
      for (const entry of corpus.cases) {
        it(`${entry.name}: ${entry.why}`, () => {
          const projection = projectTools({ row, tools: [toolOf(entry)], toolChoice: 'auto', reasoningActive: false });
          const [outcome] = projection.outcomes;
          expect(outcome).toBeDefined();
          expect(asExpectation(outcome as ToolOutcome)).toEqual(entry.expect[dialect]);
          const [spec] = projection.wireTools;
          if ((outcome as ToolOutcome).outcome === 'omitted') {
            expect(spec).toBeUndefined();
            return;
          }
          expect(spec).toBeDefined();
          if (!spec) return;
          // What is sent is a well-formed schema and breaks no rule of the route it is sent on.
          expect(() => compiles(spec.parameters)).not.toThrow();
          const rules = spec.strict
            ? row.tool_schema
            : { ...SCHEMA_DIALECT_PRESETS['loose'], name_pattern: row.tool_schema.name_pattern };
          expect(findViolation(spec.parameters, rules)).toBeNull();
          if ((outcome as ToolOutcome).outcome === 'exact') {
            expect(spec.parameters).toBe(entry.schema);
            expect(spec.description).toBe(toolOf(entry).description);
          }
          // Idempotent: the projected tool projects to itself.
          const again = projectTools({
            row,
            tools: [{ ...toolOf(entry), description: spec.description, input_schema: spec.parameters }],
            toolChoice: 'auto',
            reasoningActive: false,
          });
          expect(again.wireTools).toEqual([spec]);
          const second = again.outcomes[0];
          if (second?.outcome === 'relaxed') expect(second.rules).toEqual(['strict-off']);
          else expect(second?.outcome).toBe('exact');
        });
      }
    });
  }

  it('never lets one tool fail the request: the whole corpus projects on every dialect', () => {
    for (const dialect of SCHEMA_DIALECTS) {
      const projection = projectTools({
        row: rowFor(dialect),
        tools: corpus.cases.map(toolOf),
        toolChoice: 'auto',
        reasoningActive: false,
      });
      expect(projection.outcomes).toHaveLength(corpus.cases.length);
      const sent = projection.outcomes
        .filter((outcome) => outcome.outcome !== 'omitted')
        .map((outcome) => outcome.name);
      expect(projection.wireTools.map((tool) => tool.name)).toEqual(sent);
    }
  });

  it('never puts schema text into a diagnostic: outcomes carry names and codes only', () => {
    const projection = projectTools({
      row: rowFor('mfjs'),
      tools: corpus.cases.map(toolOf),
      toolChoice: 'auto',
      reasoningActive: false,
    });
    for (const outcome of projection.outcomes) {
      const keys = Object.keys(outcome).sort();
      expect(['name,outcome', 'name,outcome,rules', 'name,outcome,reason']).toContain(keys.join(','));
    }
    const warning = JSON.stringify(projection.warning as unknown as JsonValue);
    for (const secretish of ['C001', '^[A-Za-z-]+$', 'Any JSON value', 'root'])
      expect(warning).not.toContain(secretish);
  });
});
