// The scenario matrix the parity and wire-schema tests share (docs/wire-conformance.md): every route
// the built-in plugins register, plus one custom route per dialect, on both entry points, with five
// bodies each. Scenarios say only what goes in (config, history, catalog); what must come out is
// read from the manifest, so the matrix holds whatever rows and body builders say.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CwSnapshot, PluginRegistry } from '@cw/core';
import type { Entrypoint } from '@cw/core/plugin';
import type { JsonSchema, ToolDefinition } from '../../core/src/tools/tool-definition.js';
import { REPO_ROOT } from './cw-fixture.js';
import type { WireDialect } from './wire-schemas.js';

/** The two ways a turn is asked for. */
export const ENTRYPOINTS: readonly Entrypoint[] = ['streaming', 'blocking'];

/** The variable the custom routes read their key from. */
export const CUSTOM_KEY_ENV = 'CW_PARITY_TEST_KEY';

/** One custom route per dialect, on a closed loopback port: the test origin moves them like any route. */
export const CUSTOM_ROUTES: Readonly<
  Record<string, { provider: 'custom'; dialect: WireDialect } & Record<string, string>>
> = {
  'custom-chat': {
    provider: 'custom',
    dialect: 'chat-completions',
    base_url: 'http://127.0.0.1:9/v1',
    model: 'local-model',
    api_key_env: CUSTOM_KEY_ENV,
  },
  'custom-messages': {
    provider: 'custom',
    dialect: 'anthropic-messages',
    base_url: 'http://127.0.0.1:9',
    model: 'local-model',
    api_key_env: CUSTOM_KEY_ENV,
  },
  'custom-responses': {
    provider: 'custom',
    dialect: 'openai-responses',
    base_url: 'http://127.0.0.1:9/v1',
    model: 'local-model',
    api_key_env: CUSTOM_KEY_ENV,
  },
};

/** The prompt of every scenario: whitespace, escapes and non-ASCII that must reach the wire unchanged. */
export const PROMPT = 'keep  these  bytes\tand\nthis line: "quoted" \\ back-slashed, ünïcödé ✓ 𝄞';

/** A long conversation as cw stores it: parallel calls, results (one failed), text with and without calls. */
export const LONG_HISTORY = [
  { role: 'user', content: 'list the files at the top of the repository' },
  { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'list_directory', arguments: '{"path":"."}' }] },
  {
    role: 'tool',
    tool_call_id: 'call_1',
    name: 'list_directory',
    content: 'README.md\nsrc\npackage.json',
    status: 'ok',
  },
  { role: 'assistant', content: 'There are three entries: README.md, src and package.json.' },
  { role: 'user', content: 'read the readme and the manifest' },
  {
    role: 'assistant',
    content: 'Reading both files.',
    tool_calls: [
      { id: 'call_2', name: 'read_file', arguments: '{"path":"README.md"}' },
      { id: 'call_3', name: 'read_file', arguments: '{"path":"package.json"}' },
    ],
  },
  { role: 'tool', tool_call_id: 'call_2', name: 'read_file', content: '# Demo\n\nA small demo.', status: 'ok' },
  {
    role: 'tool',
    tool_call_id: 'call_3',
    name: 'read_file',
    content: '{"name":"demo","version":"1.0.0"}',
    status: 'ok',
  },
  { role: 'assistant', content: 'The readme is one line; the package is demo 1.0.0.' },
  { role: 'user', content: 'run the tests' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [{ id: 'call_4', name: 'shell', arguments: '{"command":"npm test"}' }],
  },
  { role: 'tool', tool_call_id: 'call_4', name: 'shell', content: 'exit 1: 2 failing', status: 'error' },
  { role: 'assistant', content: 'Two tests fail; the output names them.' },
] as const;

interface CorpusCase {
  readonly name: string;
  readonly schema: JsonSchema;
}

const corpus = JSON.parse(
  readFileSync(join(REPO_ROOT, 'core/src/tools/projection/projection-corpus.json'), 'utf8'),
) as { cases: CorpusCase[] };

function mcpTool(name: string): ToolDefinition {
  const found = corpus.cases.find((entry) => entry.name === name);
  if (!found) throw new Error(`projection corpus has no ${name}`);
  return {
    name,
    description: `MCP tool ${name}.`,
    input_schema: found.schema,
    origin: { kind: 'mcp', server: 'wild' },
    deferred: false,
  };
}

// Every schema dialect relaxes set_env (string-keyed properties dropped) and omits browser.navigate
// (a dotted name no provider takes): the corpus records both outcomes per dialect.
const RELAXED_TOOL = mcpTool('set_env');
/** The tool the tools scenario expects every route to leave off. */
export const OMITTED_TOOL = mcpTool('browser.navigate');

/** What goes into one scenario's preview and send. */
export interface ScenarioInput {
  /** Top-level config beside the route (the reasoning tier). */
  readonly config: Readonly<Record<string, unknown>>;
  readonly history: readonly unknown[];
  /** Changes the loaded snapshot: the tools scenario adds MCP tools to the catalog. */
  readonly adjust?: (snapshot: CwSnapshot) => CwSnapshot;
}

/** The five bodies of every route and entry point. */
export const SCENARIOS: Readonly<Record<string, ScenarioInput>> = {
  plain: { config: {}, history: [] },
  tools: {
    config: {},
    history: [],
    adjust: (snapshot) => ({
      ...snapshot,
      catalog: [...snapshot.catalog, RELAXED_TOOL, OMITTED_TOOL],
      mcp: { kind: 'snapshot', serverCount: 1 },
    }),
  },
  'reasoning-low': { config: { reasoning: 'low' }, history: [] },
  'reasoning-max': { config: { reasoning: 'max' }, history: [] },
  'long-history': { config: {}, history: LONG_HISTORY },
};

/** One cell of the matrix. */
export interface MatrixCell {
  readonly route: string;
  readonly entrypoint: Entrypoint;
  readonly scenario: string;
}

/** The route ids of the matrix: every built-in row, then the custom routes. */
export function matrixRoutes(registry: PluginRegistry): string[] {
  return [...registry.rows.map((row) => row.route_id), ...Object.keys(CUSTOM_ROUTES)];
}

/** Every cell: routes × entry points × scenarios. */
export function matrixCells(registry: PluginRegistry): MatrixCell[] {
  return matrixRoutes(registry).flatMap((route) =>
    ENTRYPOINTS.flatMap((entrypoint) => Object.keys(SCENARIOS).map((scenario) => ({ route, entrypoint, scenario }))),
  );
}

/** The config.json of a cell's home. */
export function cellConfig(cell: MatrixCell, extra: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { route: cell.route, routes: CUSTOM_ROUTES, ...scenarioOf(cell).config, ...extra };
}

/** The scenario of a cell. */
export function scenarioOf(cell: MatrixCell): ScenarioInput {
  const scenario = SCENARIOS[cell.scenario];
  if (!scenario) throw new Error(`no scenario ${cell.scenario}`);
  return scenario;
}

/** A cell's label in test names and messages. */
export const cellName = (cell: MatrixCell): string => `${cell.route} ${cell.entrypoint} ${cell.scenario}`;
