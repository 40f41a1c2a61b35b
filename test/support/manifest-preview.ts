// Builds previews end to end through a real snapshot (temp home, config, session, built-in plugins),
// with extra capability rows registered the way a plugin would, and checks every manifest it
// produces against the published JSON Schema.
import { previewRequest, type CwSnapshot, type PluginRegistry } from '@cw/core';
import type { CapabilityRowInput, Entrypoint } from '@cw/core/plugin';
import type { PreviewOptions, PreviewResult } from '../../core/src/manifest/build-manifest.js';
import { builtinRegistry, removeHome, snapshotOf, tempHome, writeSession } from './cw-fixture.js';
import { expectValidManifest } from './manifest-schema.js';

/** The three built-in dialects. */
export const DIALECTS = ['chat-completions', 'anthropic-messages', 'openai-responses'] as const;
/** A built-in dialect. */
export type TestDialect = (typeof DIALECTS)[number];

const ENDPOINTS: Record<TestDialect, { base_url: string; path: string; cap: 'max_tokens' | 'max_output_tokens' }> = {
  'chat-completions': { base_url: 'https://api.rows.test/v1', path: '/chat/completions', cap: 'max_tokens' },
  'anthropic-messages': { base_url: 'https://api.rows.test', path: '/v1/messages', cap: 'max_tokens' },
  'openai-responses': { base_url: 'https://api.rows.test/v1', path: '/responses', cap: 'max_output_tokens' },
};

/** A plausible capability row for a test route; `overrides` replaces whole top-level fields. */
export function testRow(
  routeId: string,
  dialect: TestDialect,
  overrides: Partial<CapabilityRowInput> = {},
): CapabilityRowInput {
  const endpoint = ENDPOINTS[dialect];
  return {
    provider_id: 'rowtest',
    provider_display: 'Row Test',
    route_id: routeId,
    dialect,
    route_shape: 'standard',
    endpoint: { base_url: endpoint.base_url, path: endpoint.path },
    auth: { scheme: 'bearer', api_key_env: 'ROW_TEST_KEY', headers: {} },
    model: { default: 'row-model', wire_map: {}, catalog: ['row-model'] },
    context: { window_tokens: 200_000, source: 'catalog', input_limit_tokens: null, output_limit_tokens: null },
    output_cap: { field: endpoint.cap, default_tokens: 8_192 },
    billing: { kind: 'metered' },
    tool_schema: { dialect: 'loose', root_must_be_object: true },
    tool_choice: { accepted: ['auto', 'none', 'required', 'named'], fallback: {} },
    reasoning: null,
    provenance: { source: 'test fixture' },
    ...overrides,
  };
}

/** The built-in registry plus test rows, registered through the plugin API so they are validated like any row. */
export async function registryWithRows(rows: readonly CapabilityRowInput[]): Promise<PluginRegistry> {
  const registry = await builtinRegistry();
  const api = registry.apiFor('@cw/test-rows');
  for (const row of rows) api.addRoute(row);
  const rejected = registry.problems.filter((problem) => problem.plugin === '@cw/test-rows');
  if (rejected.length > 0)
    throw new Error(`test row rejected: ${rejected.map((problem) => problem.detail).join('; ')}`);
  return registry;
}

/** A conversation with a tool call and its result, as cw stores it. */
export const HISTORY_WITH_TOOL_RESULTS = [
  { role: 'user', content: 'list the files at the top of the repository' },
  { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'list_directory', arguments: '{"path":"."}' }] },
  { role: 'tool', tool_call_id: 'call_1', name: 'list_directory', content: 'README.md\nsrc\npackage.json' },
  { role: 'assistant', content: 'There are three entries: README.md, src and package.json.' },
];

/** What one preview is made from. */
export interface PreviewSetup {
  readonly config?: Record<string, unknown>;
  readonly history?: readonly unknown[];
  readonly rows?: readonly CapabilityRowInput[];
  readonly registry?: PluginRegistry;
  /** Adjusts the loaded snapshot (pending state, MCP state, catalog) the way later features will. */
  readonly adjust?: (snapshot: CwSnapshot) => CwSnapshot;
  readonly prompt?: string | undefined;
  readonly entrypoint?: Entrypoint;
  readonly options?: PreviewOptions;
}

const homes: string[] = [];

/** Runs one preview through a fresh temp home; the manifest is validated against the published schema. */
export async function previewFor(
  setup: PreviewSetup = {},
): Promise<PreviewResult & { snapshot: CwSnapshot; home: string }> {
  const home = await tempHome(setup.config);
  homes.push(home);
  if (setup.history) await writeSession(home, 'default', [...setup.history], null);
  const registry = setup.registry ?? (setup.rows ? await registryWithRows(setup.rows) : await builtinRegistry());
  const loaded = await snapshotOf(home, registry);
  const snapshot = setup.adjust ? setup.adjust(loaded) : loaded;
  const prompt = 'prompt' in setup ? setup.prompt : 'fix the failing test';
  const result = await previewRequest(snapshot, prompt, setup.entrypoint ?? 'streaming', setup.options);
  expectValidManifest(result.manifest);
  return { ...result, snapshot, home };
}

/** Removes every temp home previewFor created. */
export async function removePreviewHomes(): Promise<void> {
  await Promise.all(homes.splice(0).map(removeHome));
}
