import { describe, expect, it } from 'vitest';
import { sealJson } from '../canonical/sealed-json.js';
import type { JsonSchema, ToolDefinition } from '../tools/tool-definition.js';
import { sealedListKey } from '../tools/tool-catalog-sha256.js';
import { deferCatalog } from './defer-catalog.js';
import { narrowCatalog } from './narrow-catalog.js';
import { toolSurfaceFor, toolSurfacesComputed, type ToolSurfaceInputs } from './tool-surface-cache.js';

const SCHEMA: JsonSchema = { type: 'object', properties: { path: { type: 'string' } } };

function tool(name: string, options: { deferred?: boolean; server?: string; sealed?: boolean } = {}): ToolDefinition {
  const definition: ToolDefinition = {
    name,
    description: `The ${name} tool.`,
    input_schema: SCHEMA,
    origin:
      options.server === undefined ? { kind: 'plugin', plugin: 'unit-test' } : { kind: 'mcp', server: options.server },
    deferred: options.deferred ?? false,
  } as ToolDefinition;
  return options.sealed === false ? definition : (sealJson(definition) ?? definition);
}

function inputs(catalog: readonly ToolDefinition[], overrides: Partial<ToolSurfaceInputs> = {}): ToolSurfaceInputs {
  return { catalog, gates: { surface: 'standard' }, maxTools: null, loaded: [], serverOrder: [], ...overrides };
}

function surface(input: ToolSurfaceInputs) {
  const before = toolSurfacesComputed();
  const result = toolSurfaceFor(input);
  return { result, computed: toolSurfacesComputed() > before };
}

// What prepareOutboundRequest computed before surfaces were kept.
function uncached(input: ToolSurfaceInputs) {
  const narrowed = narrowCatalog(input.catalog, input.gates, input.gates?.surface ?? 'standard').active;
  const configDeferred = narrowCatalog(input.catalog, input.gates, 'full').active.filter(
    (entry) => !narrowed.includes(entry),
  );
  return deferCatalog(narrowed, configDeferred, input.maxTools, input.loaded, input.serverOrder);
}

describe('the tool surface cache', () => {
  it('splits a catalog once and hands out the same frozen lists after that', () => {
    const catalog = Object.freeze([tool('read'), tool('write'), tool('lint', { deferred: true })]);
    const first = surface(inputs(catalog));
    const again = surface(inputs([...catalog]));
    expect(first.computed).toBe(true);
    expect(again.computed).toBe(false);
    expect(again.result).toBe(first.result);
    expect(Object.isFrozen(first.result.upFront)).toBe(true);
    expect(Object.isFrozen(first.result.deferred)).toBe(true);
    expect(first.result).toEqual(uncached(inputs(catalog)));
    // A frozen list's key is worked out once, and is the key of the same tools in any list.
    expect(sealedListKey(first.result.upFront)).toBe(sealedListKey([...first.result.upFront]));
  });

  it('splits again when a tool declaration, the gates, the limit, the loaded tools or the servers change', () => {
    const catalog = [tool('read'), tool('write'), tool('mcp_a', { server: 'a' }), tool('mcp_b', { server: 'b' })];
    const first = surface(inputs(catalog));
    const changedTool = [tool('read'), { ...tool('write'), description: 'Writes.' } as ToolDefinition];
    const sealedChange = [catalog[0] as ToolDefinition, sealJson(changedTool[1]) as ToolDefinition];
    const changed = surface(inputs(sealedChange));
    expect(changed.computed).toBe(true);
    expect(changed.result.upFront[1]?.description).toBe('Writes.');
    expect(changed.result).not.toBe(first.result);
    const cases: Partial<ToolSurfaceInputs>[] = [
      { gates: { surface: 'full' } },
      { gates: { surface: 'standard', deny: ['write'] } },
      { gates: { surface: 'standard', allow: ['read'] } },
      { maxTools: 3 },
      { maxTools: 3, loaded: ['mcp_b'] },
      { maxTools: 3, serverOrder: ['b', 'a'] },
    ];
    for (const overrides of cases) {
      const result = surface(inputs(catalog, overrides));
      expect(result.computed).toBe(true);
      expect(result.result).toEqual(uncached(inputs(catalog, overrides)));
    }
  });

  it('finds the newest surface of a frozen catalog by identity, only while the other inputs are the same', () => {
    const catalog = Object.freeze([tool('read'), tool('write'), tool('mcp_a', { server: 'a' })]);
    const gates = { surface: 'standard' as const, deny: [] as string[] };
    const first = surface(inputs(catalog, { gates }));
    expect(first.result.upFront.map((entry) => entry.name)).toContain('write');
    // The gates changed in place: the same objects, another surface.
    gates.deny.push('write');
    const denied = surface(inputs(catalog, { gates }));
    expect(denied.result.upFront.map((entry) => entry.name)).not.toContain('write');
    expect(denied.result).toEqual(uncached(inputs(catalog, { gates })));
    gates.deny.pop();
    const back = surface(inputs(catalog, { gates }));
    expect(back.computed).toBe(false);
    expect(back.result).toBe(first.result);
    const limited = surface(inputs(catalog, { gates, maxTools: 2, loaded: ['mcp_a'] }));
    expect(limited.result).toEqual(uncached(inputs(catalog, { gates, maxTools: 2, loaded: ['mcp_a'] })));
    expect(limited.result).not.toEqual(first.result);
  });

  it('splits every time a catalog holding a tool that is not sealed', () => {
    const catalog = [tool('read', { sealed: false })];
    expect(surface(inputs(catalog)).computed).toBe(true);
    expect(surface(inputs(catalog)).computed).toBe(true);
    (catalog[0] as { description: string }).description = 'Changed.';
    expect(surface(inputs(catalog)).result.upFront[0]?.description).toBe('Changed.');
  });
});
