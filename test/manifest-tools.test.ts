// The tool section: gates from config really narrow what is sent, the surface budget decides whether
// deferred tools go up front, and the standard-vs-full collapse is derived by narrowing under both.
import type { CwSnapshot } from '@cw/core';
import type { ToolDefinition } from '../core/src/tools/tool-definition.js';
import type { ToolFacts } from '../core/src/manifest/manifest-schema.js';
import { afterAll, describe, expect, it } from 'vitest';
import { previewFor, removePreviewHomes } from './support/manifest-preview.js';

afterAll(removePreviewHomes);

function toolsOf(manifest: { tools: { exact: ToolFacts } | { unavailable: unknown } }): ToolFacts {
  if (!('exact' in manifest.tools)) throw new Error('tools unavailable');
  return manifest.tools.exact;
}

const DEFERRED: ToolDefinition = {
  name: 'web_fetch',
  description: 'Fetch a URL and return its text.',
  input_schema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  origin: { kind: 'mcp', server: 'web' },
  deferred: true,
};
const withDeferred = (snapshot: CwSnapshot): CwSnapshot => ({
  ...snapshot,
  mcp: { kind: 'snapshot', serverCount: 1 },
  catalog: [...snapshot.catalog, DEFERRED],
});

describe('gates', () => {
  it('no gates: every built-in tool, counts null', async () => {
    const { manifest } = await previewFor();
    const tools = toolsOf(manifest);
    expect(tools).toMatchObject({
      catalog_tool_count: 5,
      active_tool_count: 5,
      gated_out_tool_count: 0,
      deferred_tool_count: 0,
    });
    expect(manifest.session.allowed_tool_gate_count).toBeNull();
    expect(manifest.session.disallowed_tool_gate_count).toBeNull();
  });

  it('an allow gate keeps only the tools it names', async () => {
    const { manifest, prepared } = await previewFor({ config: { tools: { allow: ['read_file', 'not_a_tool'] } } });
    expect(toolsOf(manifest)).toMatchObject({ active_tool_count: 1, gated_out_tool_count: 4 });
    expect(manifest.session.allowed_tool_gate_count).toBe(2);
    expect(prepared?.projection.wireTools.map((tool) => tool.name)).toEqual(['read_file']);
  });

  it('a deny gate removes the tools it names', async () => {
    const { manifest } = await previewFor({ config: { tools: { deny: ['shell', 'edit_file'] } } });
    expect(toolsOf(manifest)).toMatchObject({ active_tool_count: 3, gated_out_tool_count: 2 });
    expect(manifest.session.disallowed_tool_gate_count).toBe(2);
  });

  it('an empty allow gate sends no tools and no tool_choice', async () => {
    const { manifest, prepared } = await previewFor({ config: { tools: { allow: [] }, reasoning: 'off' } });
    expect(toolsOf(manifest).active_tool_count).toBe(0);
    expect(prepared?.body['tools']).toBeUndefined();
    expect(manifest.body).toMatchObject({
      exact: { tool_choice: null, tool_schema_wire_sha256: null, tool_schema_canonical_json_bytes: 0 },
    });
  });

  it('gates move the logical catalog hash; the same catalog hashes the same on every route', async () => {
    const base = toolsOf((await previewFor()).manifest).active_tool_catalog_sha256;
    const gated = toolsOf(
      (await previewFor({ config: { tools: { deny: ['shell'] } } })).manifest,
    ).active_tool_catalog_sha256;
    expect(gated).not.toBe(base);
    const responses = await previewFor({
      config: {
        route: 'r',
        routes: {
          r: { provider: 'custom', dialect: 'openai-responses', base_url: 'http://127.0.0.1:9/v1', model: 'm' },
        },
      },
    });
    expect(toolsOf(responses.manifest).active_tool_catalog_sha256).toBe(base);
    // ...while the wire tool bytes differ: each dialect shapes schemas its own way.
    const chat = await previewFor();
    const wireChat = 'exact' in chat.manifest.body ? chat.manifest.body.exact.tool_schema_wire_sha256 : null;
    const wireResponses =
      'exact' in responses.manifest.body ? responses.manifest.body.exact.tool_schema_wire_sha256 : null;
    expect(wireChat).not.toBe(wireResponses);
  });
});

describe('surface budget and the derived standard-vs-full collapse', () => {
  it('no deferred tools: both budgets give the same catalog', async () => {
    const tools = toolsOf((await previewFor()).manifest);
    expect(tools.tool_surface_budget).toBe('standard');
    expect(tools.standard_and_full_surfaces_collapsed).toBe(true);
  });

  it('a deferred tool under standard: held back, and the budgets are distinct', async () => {
    const { manifest, prepared } = await previewFor({ adjust: withDeferred });
    const tools = toolsOf(manifest);
    expect(tools).toMatchObject({
      catalog_tool_count: 6,
      deferred_tool_count: 1,
      active_tool_count: 5,
      mcp_tool_count: 0,
      standard_and_full_surfaces_collapsed: false,
    });
    expect(prepared?.projection.wireTools.map((tool) => tool.name)).not.toContain('web_fetch');
  });

  it('the full budget sends deferred tools up front', async () => {
    const { manifest } = await previewFor({ config: { tools: { surface: 'full' } }, adjust: withDeferred });
    expect(toolsOf(manifest)).toMatchObject({
      tool_surface_budget: 'full',
      active_tool_count: 6,
      mcp_tool_count: 1,
      standard_and_full_surfaces_collapsed: false,
    });
  });

  it('a gate that removes the deferred tool collapses the budgets again', async () => {
    const { manifest } = await previewFor({ config: { tools: { deny: ['web_fetch'] } }, adjust: withDeferred });
    expect(toolsOf(manifest).standard_and_full_surfaces_collapsed).toBe(true);
  });
});

describe('projection outcomes are bounded and redacted', () => {
  it('at most eight changed tools are listed, the rest counted; the table still fits 80 columns', async () => {
    const { renderManifestTable } = await import('../cli/src/render/render-manifest-table.js');
    const unsendable = Array.from(
      { length: 11 },
      (_unused, index): ToolDefinition => ({
        name: `bad name ${index} /home/someone`,
        description: 'A tool whose name no route accepts.',
        input_schema: { type: 'object', properties: {} },
        origin: { kind: 'mcp', server: 'odd' },
        deferred: false,
      }),
    );
    const { manifest } = await previewFor({
      adjust: (snapshot) => ({
        ...snapshot,
        mcp: { kind: 'snapshot', serverCount: 1 },
        catalog: [...snapshot.catalog, ...unsendable],
      }),
    });
    const projection = toolsOf(manifest).projection;
    expect(projection.omitted_count + projection.relaxed_count).toBeGreaterThanOrEqual(11);
    expect(projection.changed).toHaveLength(8);
    expect(projection.more_changed_count).toBe(projection.omitted_count + projection.relaxed_count - 8);
    const text = `${JSON.stringify(manifest)}\n${renderManifestTable(manifest, { color: false })}`;
    expect(text).not.toContain('/home/someone');
    expect(text).not.toContain('bad name');
    expect(
      Math.max(
        ...renderManifestTable(manifest, { color: false })
          .split('\n')
          .map((line) => [...line].length),
      ),
    ).toBeLessThanOrEqual(80);
  });
});
