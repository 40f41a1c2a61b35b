import { describe, expect, it } from 'vitest';
import { sealJson } from '../canonical/sealed-json.js';
import { unitCapabilityRow } from '../../../test/support/unit-capability-row.js';
import type { McpState } from '../snapshot/snapshot.js';
import { cachedProjection } from '../tools/projection-cache.js';
import { projectTools } from '../tools/project-tools.js';
import { toolCatalogSha256 } from '../tools/tool-catalog-sha256.js';
import type { JsonSchema, ToolDefinition } from '../tools/tool-definition.js';
import type { ToolFacts } from './manifest-schema.js';
import { cachedToolFacts, toolFactsComputed, type ToolFactsInputs } from './tool-facts-cache.js';

const SCHEMA: JsonSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

function tool(name: string, input_schema: JsonSchema = SCHEMA, sealed = true): ToolDefinition {
  const definition: ToolDefinition = {
    name,
    description: `The ${name} tool.`,
    input_schema,
    origin: { kind: 'plugin', plugin: 'unit-test' },
    deferred: false,
  };
  return sealed ? (sealJson(definition) ?? definition) : definition;
}

const NO_MCP = { kind: 'snapshot', serverCount: 0 } as unknown as McpState;

function inputs(catalog: readonly ToolDefinition[], overrides: Partial<ToolFactsInputs> = {}): ToolFactsInputs {
  const projection = cachedProjection(
    { row: unitCapabilityRow(), tools: catalog, toolChoice: 'auto', reasoningActive: false },
    projectTools,
  );
  return {
    catalog,
    gates: { surface: 'standard' },
    activeTools: catalog,
    deferredTools: [],
    projection,
    mcp: NO_MCP,
    ...overrides,
  };
}

// Stands in for the manifest's tool facts: what it reads of the inputs shows in what it returns.
function compute(input: ToolFactsInputs): ToolFacts {
  return {
    catalog_tool_count: input.catalog.length,
    active_tool_catalog_sha256: toolCatalogSha256(input.activeTools),
    tool_surface_budget: input.gates?.surface ?? 'standard',
    mcp_server_count: input.mcp.kind === 'snapshot' ? input.mcp.serverCount : 0,
  } as unknown as ToolFacts;
}

function facts(input: ToolFactsInputs): { facts: ToolFacts; computed: boolean } {
  const before = toolFactsComputed();
  const result = cachedToolFacts(input, compute);
  return { facts: result, computed: toolFactsComputed() > before };
}

describe('the tool facts cache', () => {
  it('works the facts out once per catalog and gives the same frozen facts after that', () => {
    const catalog = [tool('read'), tool('write')];
    const first = facts(inputs(catalog));
    const again = facts(inputs([...catalog]));
    expect(first.computed).toBe(true);
    expect(again.computed).toBe(false);
    expect(again.facts).toBe(first.facts);
    expect(Object.isFrozen(first.facts)).toBe(true);
  });

  it('works them out again when a tool declaration, the gates or the MCP servers change', () => {
    const catalog = [tool('read'), tool('write')];
    const first = facts(inputs(catalog));
    const changedSchema = [tool('read', { ...SCHEMA, required: [] }), catalog[1] as ToolDefinition];
    const changed = facts(inputs(changedSchema));
    expect(changed.computed).toBe(true);
    expect(changed.facts.active_tool_catalog_sha256).not.toBe(first.facts.active_tool_catalog_sha256);
    expect(facts(inputs(catalog, { gates: { surface: 'full' } })).computed).toBe(true);
    expect(facts(inputs(catalog, { gates: { surface: 'standard', deny: ['write'] } })).computed).toBe(true);
    expect(facts(inputs(catalog, { mcp: { kind: 'snapshot', serverCount: 2 } as unknown as McpState })).computed).toBe(
      true,
    );
    expect(facts(inputs(catalog, { activeTools: [catalog[0] as ToolDefinition] })).computed).toBe(true);
    expect(facts(inputs(catalog, { deferredTools: [tool('late')] })).computed).toBe(true);
  });

  it('works them out every time for a catalog that is not sealed', () => {
    const catalog = [tool('read', SCHEMA, false)];
    expect(facts(inputs(catalog)).computed).toBe(true);
    expect(facts(inputs(catalog)).computed).toBe(true);
  });
});
