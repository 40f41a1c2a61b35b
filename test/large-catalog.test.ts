// A catalog far larger than the route takes: MCP tools beyond the room are deferred behind cw's
// search_tools meta-tool, the manifest counts them exactly, and tools loaded by an earlier search
// (read from the session) come up front on the next request.
import type { CwSnapshot } from '@cw/core';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolFacts } from '../core/src/manifest/manifest-schema.js';
import type { ToolDefinition } from '../core/src/tools/tool-definition.js';
import { builtinRegistry } from './support/cw-fixture.js';
import { previewFor, removePreviewHomes, testRow } from './support/manifest-preview.js';

afterAll(removePreviewHomes);

const MAX_TOOLS = 16;
const MCP_TOOLS = Array.from(
  { length: 200 },
  (_unused, index): ToolDefinition => ({
    name: `mcp__big__tool_${String(index).padStart(3, '0')}`,
    description: index === 150 ? 'Look up the weather forecast for a city.' : `Fake tool number ${index}.`,
    input_schema: { type: 'object', properties: { value: { type: 'string' } } },
    origin: { kind: 'mcp', server: 'big' },
    deferred: false,
  }),
);
const withBigCatalog = (snapshot: CwSnapshot): CwSnapshot => ({
  ...snapshot,
  mcp: { kind: 'snapshot', serverCount: 1 },
  catalog: [...snapshot.catalog, ...MCP_TOOLS],
});

async function bigRouteRegistry() {
  const registry = await builtinRegistry();
  registry.apiFor('@cw/test').addRoute(
    testRow('big-catalog', 'chat-completions', {
      tool_schema: { dialect: 'loose', root_must_be_object: true, max_tools: MAX_TOOLS },
    }),
  );
  expect(registry.problems.filter((problem) => problem.plugin === '@cw/test')).toEqual([]);
  return registry;
}

function toolsOf(manifest: { tools: { exact: ToolFacts } | { unavailable: unknown } }): ToolFacts {
  if (!('exact' in manifest.tools)) throw new Error('tools unavailable');
  return manifest.tools.exact;
}

const wireNames = (body: Record<string, unknown> | undefined): string[] =>
  ((body?.['tools'] ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

describe('a catalog larger than the route takes', () => {
  it('sends the plugin tools, search_tools and the first MCP tools; defers the rest, counted exactly', async () => {
    const { manifest, prepared, snapshot } = await previewFor({
      registry: await bigRouteRegistry(),
      config: { route: 'big-catalog' },
      adjust: withBigCatalog,
    });
    const plugins = snapshot.catalog.filter((tool) => tool.origin.kind === 'plugin').map((tool) => tool.name);
    expect(plugins).toHaveLength(5);
    const sent = wireNames(prepared?.body);
    expect(sent).toHaveLength(MAX_TOOLS);
    expect(sent.slice(0, 6)).toEqual([...plugins, 'search_tools']);
    const upFrontMcp = MAX_TOOLS - plugins.length - 1;
    expect(sent.slice(6)).toEqual(MCP_TOOLS.slice(0, upFrontMcp).map((tool) => tool.name));
    const tools = toolsOf(manifest);
    expect(tools).toMatchObject({
      catalog_tool_count: 205,
      deferred_tool_count: 200 - upFrontMcp,
      active_tool_count: MAX_TOOLS,
      search_tools_sent: true,
      mcp_tool_count: upFrontMcp,
      projection: { omitted_count: 0 },
    });
    // search_tools is no catalog tool: the catalog tools sent and the deferred ones make the catalog.
    expect(tools.active_tool_count - 1 + tools.deferred_tool_count).toBe(tools.catalog_tool_count);
    const { renderManifestTable } = await import('../cli/src/render/render-manifest-table.js');
    const table = renderManifestTable(manifest as never, { color: false });
    expect(table).toContain(`${MAX_TOOLS - 1} of 205 catalog tools, and search_tools`);
    expect(table).toContain(`${200 - upFrontMcp} deferred`);
    expect(prepared?.projection.warning).toBeNull();
    expect(prepared?.deferredTools).toHaveLength(200 - upFrontMcp);
  });

  it('ten servers share the room equally, and renaming them changes no share', async () => {
    // Config order is the order servers are listed in; names are chosen so alphabetical order differs.
    const tenServers =
      (names: readonly string[]) =>
      (snapshot: CwSnapshot): CwSnapshot => ({
        ...snapshot,
        config: {
          ...snapshot.config,
          mcpServers: Object.fromEntries(
            names.map((name) => [name, { command: 'node', args: [], env: {}, disabled: false }]),
          ) as CwSnapshot['config']['mcpServers'],
        },
        mcp: { kind: 'snapshot', serverCount: names.length },
        catalog: [
          ...snapshot.catalog,
          ...names.flatMap((server) =>
            Array.from(
              { length: 30 },
              (_unused, index): ToolDefinition => ({
                name: `mcp__${server}__t${String(index).padStart(2, '0')}`,
                description: `Tool ${index} of ${server}.`,
                input_schema: { type: 'object' },
                origin: { kind: 'mcp', server },
                deferred: false,
              }),
            ),
          ),
        ],
      });
    const shares = async (names: readonly string[]) => {
      const { manifest, prepared } = await previewFor({
        registry: await bigRouteRegistry(),
        config: { route: 'big-catalog' },
        adjust: tenServers(names),
      });
      const tools = toolsOf(manifest);
      // The counts add up: catalog tools sent (search_tools is none) plus deferred ones make the catalog.
      expect(tools.active_tool_count - 1 + tools.deferred_tool_count).toBe(tools.catalog_tool_count);
      const sent = wireNames(prepared?.body).filter((name) => name.startsWith('mcp__'));
      return names.map((server) => sent.filter((name) => name.startsWith(`mcp__${server}__`)).length);
    };
    const names = ['zeta', 'alpha', 'mu', 'beta', 'omega', 'delta', 'kappa', 'gamma', 'sigma', 'epsilon'];
    const room = MAX_TOOLS - 5 - 1;
    const before = await shares(names);
    expect(before).toEqual(names.map(() => room / names.length));
    // Alphabetically later names (a z prefix) and earlier ones (an a prefix): the shares stay.
    const renamed = names.map((name, index) => (index % 2 === 0 ? `z${name}` : `a${name}`));
    expect(await shares(renamed)).toEqual(before);
  });

  it('a search_tools result in the history loads its tools up front on the next request', async () => {
    const loaded = 'mcp__big__tool_150';
    const { manifest, prepared } = await previewFor({
      registry: await bigRouteRegistry(),
      config: { route: 'big-catalog' },
      adjust: withBigCatalog,
      history: [
        { role: 'user', content: 'what is the weather in Lisbon?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_1', name: 'search_tools', arguments: '{"query":"weather"}' }],
        },
        {
          role: 'tool',
          tool_call_id: 'call_1',
          name: 'search_tools',
          content: `${loaded} — Look up the weather forecast for a city.\nloaded: ${loaded}, mcp__gone__tool`,
          status: 'ok',
        },
      ],
      prompt: undefined,
    });
    expect(manifest.session.lane_kind).toBe('agent-loop-continuation');
    const sent = wireNames(prepared?.body);
    expect(sent).toHaveLength(MAX_TOOLS);
    expect(sent[6]).toBe(loaded);
    expect(sent).not.toContain('mcp__gone__tool');
    const upFrontMcp = MAX_TOOLS - 5 - 1;
    expect(toolsOf(manifest).deferred_tool_count).toBe(200 - upFrontMcp);
    expect(prepared?.deferredTools.map((tool) => tool.name)).not.toContain(loaded);
  });

  it('the search_tools executor searches exactly the deferred tools of the request', async () => {
    const { prepared } = await previewFor({
      registry: await bigRouteRegistry(),
      config: { route: 'big-catalog' },
      adjust: withBigCatalog,
    });
    const { searchToolsImplementation } = await import('../core/src/catalog/defer-catalog.js');
    const tool = searchToolsImplementation(prepared?.deferredTools ?? []);
    const outcome = await tool.execute({ query: 'WEATHER forecast' }, {} as never);
    expect(outcome.content).toBe(
      'mcp__big__tool_150 — Look up the weather forecast for a city.\nloaded: mcp__big__tool_150',
    );
  });

  it('the built-in catalog on a built-in route defers nothing', async () => {
    const { manifest, prepared } = await previewFor();
    expect(toolsOf(manifest).deferred_tool_count).toBe(0);
    expect(wireNames(prepared?.body)).not.toContain('search_tools');
  });
});
