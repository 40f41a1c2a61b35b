import { describe, expect, it } from 'vitest';
import { unitCapabilityRow } from '../../../test/support/unit-capability-row.js';
import { BUILTIN_TOOLS } from '../../../test/support/workspace-tools.js';
import { projectTools, ToolChoiceError } from './project-tools.js';
import type { LogicalToolChoice, ProjectionContext } from './tool-projection-types.js';
import type { ToolDefinition } from './tool-definition.js';

const row = unitCapabilityRow;

function tool(
  name: string,
  input_schema: ToolDefinition['input_schema'] = { type: 'object', properties: {} },
  deferred = false,
): ToolDefinition {
  return { name, description: `The ${name} tool.`, input_schema, origin: { kind: 'mcp', server: 'test' }, deferred };
}

const unsendable = (name: string): ToolDefinition =>
  tool(name, { type: 'object', properties: { v: { type: 'string', not: { const: 'x' } } } });

function context(overrides: Partial<ProjectionContext> & { toolChoice?: LogicalToolChoice } = {}): ProjectionContext {
  return { row: row(), tools: BUILTIN_TOOLS, toolChoice: 'auto', reasoningActive: false, ...overrides };
}

describe('projectTools', () => {
  it('omits one incompatible tool, keeps the rest exact, and warns once with its name and code', () => {
    const projection = projectTools(context({ tools: [...BUILTIN_TOOLS, unsendable('negated')] }));
    expect(projection.outcomes.map((entry) => entry.outcome)).toEqual([...BUILTIN_TOOLS.map(() => 'exact'), 'omitted']);
    expect(projection.wireTools.map((spec) => spec.name)).toEqual(BUILTIN_TOOLS.map((entry) => entry.name));
    expect(projection.toolChoice).toBe('auto');
    expect(projection.warning).toEqual({
      code: 'tool-projection-degraded',
      omitted: [{ name: 'negated', reason: 'keyword-not-accepted' }],
      omitted_count: 1,
      more: 0,
      tool_choice: null,
      message: '1 tool cannot be sent on route example and was left off: negated (keyword-not-accepted)',
    });
  });

  it('leaves tools and tool_choice off when nothing compatible remains', () => {
    const projection = projectTools(context({ tools: [unsendable('a1'), tool('9lives')], toolChoice: 'required' }));
    expect(projection.wireTools).toEqual([]);
    expect(projection.toolChoice).toBeNull();
    expect(projection.warning?.omitted_count).toBe(2);
  });

  it('bounds the warning to eight redacted names and counts the rest', () => {
    const hostile = tool(`x${'A1b2C3d4'.repeat(4)}`, { type: 'string' });
    const many = [hostile, ...Array.from({ length: 11 }, (_, index) => tool(`t${index}`, { type: 'string' }))];
    const warning = projectTools(context({ tools: many })).warning;
    expect(warning?.omitted).toHaveLength(8);
    expect(warning?.omitted_count).toBe(12);
    expect(warning?.more).toBe(4);
    expect(warning?.message).toContain('and 4 more');
    // A name that looks like a token is fingerprinted, in the list and in the message.
    expect(warning?.omitted[0]?.name).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(warning?.message).not.toContain('A1b2C3d4');
  });

  it('rejects a named tool_choice that points at an omitted tool with a typed error', () => {
    expect(() =>
      projectTools(context({ tools: [...BUILTIN_TOOLS, unsendable('negated')], toolChoice: { name: 'negated' } })),
    ).toThrow(ToolChoiceError);
    expect(() => projectTools(context({ toolChoice: { name: 'not_in_catalog' } }))).toThrow(ToolChoiceError);
    expect(projectTools(context({ toolChoice: { name: 'read_file' } })).toolChoice).toEqual({ name: 'read_file' });
  });

  it('omits a duplicate name and tools beyond the route limit, in catalog order', () => {
    const projection = projectTools(
      context({
        row: row({ tool_schema: { dialect: 'object-root', max_tools: 2 } }),
        tools: [tool('a'), tool('a'), tool('b'), tool('c')],
      }),
    );
    expect(projection.outcomes).toEqual([
      { name: 'a', outcome: 'exact' },
      { name: 'a', outcome: 'omitted', reason: 'duplicate-name' },
      { name: 'b', outcome: 'exact' },
      { name: 'c', outcome: 'omitted', reason: 'tool-limit-exceeded' },
    ]);
  });

  it('projects deferred tools too, so tool search only offers what the route can send', () => {
    const projection = projectTools(
      context({
        tools: [tool('active')],
        deferredTools: [
          tool('later_ok', { type: 'object', properties: { q: { type: 'string' } } }, true),
          unsendable('later_bad'),
          tool('2late'),
        ],
      }),
    );
    expect(projection.deferred).toEqual([
      { name: 'later_ok', outcome: 'exact' },
      { name: 'later_bad', outcome: 'omitted', reason: 'keyword-not-accepted' },
      { name: '2late', outcome: 'omitted', reason: 'name-not-accepted' },
    ]);
    expect(projection.deferredWireTools.map((spec) => spec.name)).toEqual(['later_ok']);
    // Deferred tools are not on this request's wire, so they do not make its warning.
    expect(projection.warning).toBeNull();
  });

  it('applies the row fallback for a tool_choice form the route does not accept, and says so', () => {
    const restricted = row({ tool_choice: { accepted: ['auto'], fallback: { none: 'drop-tools', required: 'auto' } } });
    const none = projectTools(context({ row: restricted, toolChoice: 'none' }));
    expect(none.wireTools).toEqual([]);
    expect(none.toolChoice).toBeNull();
    expect(none.warning?.tool_choice).toEqual({ requested: 'none', sent: 'tools-dropped' });
    const required = projectTools(context({ row: restricted, toolChoice: 'required' }));
    expect(required.toolChoice).toBe('auto');
    expect(required.warning?.message).toBe('tool_choice required was sent as auto');
    const named = projectTools(context({ row: restricted, toolChoice: { name: 'search' } }));
    expect(named.toolChoice).toBeNull();
    expect(named.warning?.tool_choice).toEqual({ requested: 'named', sent: 'omitted' });
  });

  it('follows the reasoning control: tool_choice left off while thinking, forced choices refused where the row says so', () => {
    const thinking = row({
      reasoning: {
        key_path: 'reasoning_effort',
        value_kind: 'effort',
        values: { high: 'high' },
        default_tier: 'high',
        omits_tool_choice: true,
        forbids_forced_tool_choice: true,
      },
    });
    expect(projectTools(context({ row: thinking, reasoningActive: true })).toolChoice).toBeNull();
    expect(projectTools(context({ row: thinking, reasoningActive: true })).warning).toBeNull();
    expect(projectTools(context({ row: thinking, reasoningActive: true, toolChoice: 'none' })).wireTools).toEqual([]);
    expect(() => projectTools(context({ row: thinking, reasoningActive: true, toolChoice: 'required' }))).toThrow(
      ToolChoiceError,
    );
    expect(projectTools(context({ row: thinking, reasoningActive: false, toolChoice: 'required' })).toolChoice).toBe(
      'required',
    );
  });

  it('is deterministic and leaves the catalog untouched', () => {
    const catalog = [
      ...BUILTIN_TOOLS,
      unsendable('negated'),
      tool('fetch', { type: 'object', properties: { mode: { const: 'raw' }, url: { type: 'string', format: 'uri' } } }),
    ];
    const before = JSON.stringify(catalog);
    const first = projectTools(context({ tools: catalog }));
    expect(projectTools(context({ tools: catalog }))).toEqual(first);
    expect(JSON.stringify(catalog)).toBe(before);
    expect(first.outcomes.at(-1)).toEqual({
      name: 'fetch',
      outcome: 'relaxed',
      rules: ['const-to-enum', 'infer-literal-type', 'constraints-to-description'],
    });
  });
});
