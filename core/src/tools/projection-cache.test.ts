import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sealJson } from '../canonical/sealed-json.js';
import { unitCapabilityRow } from '../../../test/support/unit-capability-row.js';
import { clearProjectionCache, projectionsComputed, cachedProjection } from './projection-cache.js';
import { projectTools } from './project-tools.js';
import type { JsonSchema, ToolDefinition } from './tool-definition.js';
import type { LogicalToolChoice, ProjectionContext } from './tool-projection-types.js';

const row = unitCapabilityRow;

function tool(name: string, input_schema: JsonSchema, sealed = true): ToolDefinition {
  const definition: ToolDefinition = {
    name,
    description: `The ${name} tool.`,
    input_schema,
    origin: { kind: 'plugin', plugin: 'unit-test' },
    deferred: false,
  };
  return sealed ? (sealJson(definition) ?? definition) : definition;
}

const SCHEMA: JsonSchema = {
  type: 'object',
  properties: { path: { type: 'string', format: 'uri' }, mode: { const: 'text' } },
  required: ['path'],
};

function context(overrides: Partial<ProjectionContext> & { toolChoice?: LogicalToolChoice } = {}): ProjectionContext {
  return {
    row: row(),
    tools: [tool('read', SCHEMA), tool('write', SCHEMA)],
    toolChoice: 'auto',
    reasoningActive: false,
    ...overrides,
  };
}

/** Projects through the cache and says whether the engine ran. */
function project(input: ProjectionContext): { projection: ReturnType<typeof projectTools>; computed: boolean } {
  const before = projectionsComputed();
  const projection = cachedProjection(input, projectTools);
  return { projection, computed: projectionsComputed() > before };
}

describe('the projection cache', () => {
  it('projects a catalog once per row: the same inputs again are not projected again', () => {
    clearProjectionCache();
    const tools = [tool('read', SCHEMA), tool('write', SCHEMA)];
    expect(project(context({ tools })).computed).toBe(true);
    // A new row object and a new list, with the same content: still the same key.
    const again = project(context({ tools: [...tools] }));
    expect(again.computed).toBe(false);
    expect(again.projection).toEqual(projectTools(context({ tools })));
  });

  it('projects again when the catalog, the row, the tool choice or reasoning changes', () => {
    clearProjectionCache();
    const tools = [tool('read', SCHEMA), tool('write', SCHEMA)];
    expect(project(context({ tools })).computed).toBe(true);
    expect(project(context({ tools: [tools[0] as ToolDefinition] })).computed).toBe(true);
    expect(
      project(context({ tools: [tool('read', { ...SCHEMA, required: [] }), tools[1] as ToolDefinition] })).computed,
    ).toBe(true);
    expect(project(context({ tools, row: row({ tool_schema: { dialect: 'strict' } }) })).computed).toBe(true);
    expect(project(context({ tools, row: row({ route_id: 'other' }) })).computed).toBe(true);
    expect(project(context({ tools, toolChoice: 'required' })).computed).toBe(true);
    expect(project(context({ tools, reasoningActive: true })).computed).toBe(true);
    expect(project(context({ tools, deferredTools: [tool('late', SCHEMA)] })).computed).toBe(true);
  });

  it('reads a sealed row by identity, and a changed sealed row projects again', () => {
    clearProjectionCache();
    const tools = [tool('read', SCHEMA), tool('write', SCHEMA)];
    const sealedRow = sealJson(row()) ?? row();
    expect(project(context({ tools, row: sealedRow })).computed).toBe(true);
    expect(project(context({ tools, row: sealedRow })).computed).toBe(false);
    // The same content, sealed or not, is the same key.
    expect(project(context({ tools, row: row() })).computed).toBe(false);
    const strict = sealJson(row({ tool_schema: { dialect: 'strict' } })) ?? row();
    expect(project(context({ tools, row: strict })).computed).toBe(true);
    expect(project(context({ tools, row: strict })).computed).toBe(false);
  });

  it('gives every caller a sealed result, so mutating one cannot change the next', () => {
    clearProjectionCache();
    const first = project(context()).projection;
    expect(() => {
      (first.wireTools as unknown[]).push({});
    }).toThrow(TypeError);
    expect(() => {
      (first.wireTools[0]?.parameters as Record<string, unknown>)['type'] = 'string';
    }).toThrow(TypeError);
    expect(project(context()).projection).toEqual(projectTools(context()));
  });

  it('notices a change inside a schema that is not sealed', () => {
    clearProjectionCache();
    const schema = structuredClone(SCHEMA) as Record<string, unknown>;
    const tools = [tool('read', schema as JsonSchema, false)];
    expect(project(context({ tools })).computed).toBe(true);
    expect(project(context({ tools })).computed).toBe(false);
    schema['required'] = [];
    const changed = project(context({ tools }));
    expect(changed.computed).toBe(true);
    expect(changed.projection).toEqual(projectTools(context({ tools })));
  });

  it('gives the same projection as the engine alone, cold or warm', () => {
    const property = fc.record({
      names: fc.uniqueArray(fc.constantFrom('read', 'write', 'bad name', 'list', 'grep'), { maxLength: 5 }),
      format: fc.constantFrom('uri', 'email', 'date-time'),
      dialect: fc.constantFrom('loose', 'strict', 'strict-narrow', 'mfjs', 'draft-2020-object', 'object-root'),
      choice: fc.constantFrom<LogicalToolChoice>('auto', 'none', 'required'),
      reasoningActive: fc.boolean(),
      maxTools: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    });
    fc.assert(
      fc.property(property, fc.boolean(), (input, cold) => {
        if (cold) clearProjectionCache();
        const schema: JsonSchema = { ...SCHEMA, properties: { path: { type: 'string', format: input.format } } };
        const input_context = context({
          tools: input.names.map((name) => tool(name, schema)),
          row: row({ tool_schema: { dialect: input.dialect, max_tools: input.maxTools } }),
          toolChoice: input.choice,
          reasoningActive: input.reasoningActive,
        });
        let expected: unknown;
        try {
          expected = projectTools(input_context);
        } catch (error) {
          expect(() => cachedProjection(input_context, projectTools)).toThrow((error as Error).message);
          return;
        }
        expect(cachedProjection(input_context, projectTools)).toEqual(expected);
        expect(cachedProjection(input_context, projectTools)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the projection cache, by identity', () => {
  const sealedRow = () => sealJson(row()) as ReturnType<typeof row>;

  it('finds the projection of a sealed row and frozen tool lists again without computing it', () => {
    clearProjectionCache();
    const kept = sealedRow();
    const tools = Object.freeze([tool('read', SCHEMA), tool('write', SCHEMA)]);
    const first = project(context({ row: kept, tools, deferredTools: Object.freeze([]) }));
    const again = project(context({ row: kept, tools, deferredTools: Object.freeze([]) }));
    expect(first.computed).toBe(true);
    expect(again.computed).toBe(false);
    expect(again.projection).toBe(first.projection);
    // The same tools in another frozen list: found by text, and the same projection.
    expect(project(context({ row: kept, tools: Object.freeze([...tools]) })).projection).toBe(first.projection);
  });

  it('computes again when the tools, the tool choice or reasoning change, and after the cache is cleared', () => {
    clearProjectionCache();
    const kept = sealedRow();
    const tools = Object.freeze([tool('read', SCHEMA), tool('write', SCHEMA)]);
    const first = project(context({ row: kept, tools }));
    const changedSchema = Object.freeze([tool('read', { ...SCHEMA, required: [] }), tool('write', SCHEMA)]);
    const changed = project(context({ row: kept, tools: changedSchema }));
    expect(changed.computed).toBe(true);
    expect(changed.projection.wireTools[0]?.parameters).not.toEqual(first.projection.wireTools[0]?.parameters);
    expect(project(context({ row: kept, tools, toolChoice: 'required' })).computed).toBe(true);
    expect(project(context({ row: kept, tools, reasoningActive: true })).computed).toBe(true);
    expect(project(context({ row: kept, tools, deferredTools: Object.freeze([tool('late', SCHEMA)]) })).computed).toBe(
      true,
    );
    clearProjectionCache();
    expect(project(context({ row: kept, tools })).computed).toBe(true);
  });
});
