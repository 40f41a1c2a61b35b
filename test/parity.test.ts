// Parity on every route (docs/wire-conformance.md): each scenario is previewed, then sent to a local
// endpoint through the test origin (docs/transport.md), and the bytes the endpoint received are held
// against the manifest. Nothing here knows a route's body: every expectation is read from the manifest.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewRequest, sendTurn, type RequestManifest } from '@cw/core';
import { TEST_MODE_ENV, TEST_MODE_MARKER, TEST_ORIGIN_ENV } from '../core/src/transport/test-origin.js';
import { readSession } from '../core/src/state/session-store.js';
import { userAgent } from '../core/src/transport/user-agent.js';
import {
  REPLY_TEXT,
  startCaptureEndpoint,
  type CaptureEndpoint,
  type CapturedRequest,
} from './support/capture-endpoint.js';
import {
  FAKE_KEY,
  REPO_ROOT,
  builtinRegistry,
  removeHome,
  snapshotOf,
  tempHome,
  writeSession,
} from './support/cw-fixture.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { runCw } from './support/run-cw.js';
import { runCwChild, sessionMessages, tempFolders } from './support/spawn-cw.js';
import type { WireDialect } from './support/wire-schemas.js';
import {
  CUSTOM_KEY_ENV,
  ENTRYPOINTS,
  OMITTED_TOOL,
  PROMPT,
  SCENARIOS,
  cellConfig,
  cellName,
  matrixCells,
  matrixRoutes,
  scenarioOf,
  type MatrixCell,
} from './support/wire-scenarios.js';
import { withoutNoSandboxNotice } from './support/require-bubblewrap.js';

const registry = await builtinRegistry();
const CELLS = matrixCells(registry);
// Fail fast on loopback; a refused send is never retried.
const TRANSPORT = {
  timeouts: { connect_ms: 2_000, first_byte_ms: 5_000, idle_ms: 5_000, total_ms: 20_000 },
  retries: { max: 0 },
};
/** Every key variable a route names, holding the fake key. */
const KEYS: Record<string, string> = Object.fromEntries(
  [...registry.rows.map((row) => row.auth.api_key_env), CUSTOM_KEY_ENV]
    .filter((name): name is string => name !== null)
    .map((name) => [name, FAKE_KEY]),
);

// The harness's own vocabulary of where reasoning and caps sit on any wire, independent of cw's code.
const REASONING_KEYS = [
  'reasoning_effort',
  'reasoning',
  'thinking',
  'output_config',
  'include',
  'chat_template_kwargs',
  'think',
];
// Controls nested inside a settings object, named by their dotted path.
const NESTED_REASONING_PATHS = ['generationConfig.thinkingConfig'];
const EFFORT_PATHS = [
  'reasoning_effort',
  'reasoning.effort',
  'output_config.effort',
  'thinking.effort',
  'generationConfig.thinkingConfig.thinkingLevel',
];
const BUDGET_PATHS = [
  'thinking.budget_tokens',
  'reasoning.max_tokens',
  'generationConfig.thinkingConfig.thinkingBudget',
];
const CAP_PATHS = [
  'max_tokens',
  'max_completion_tokens',
  'max_output_tokens',
  'generationConfig.maxOutputTokens',
  'options.num_predict',
];

const sha256 = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex');

type ExactBody = Extract<RequestManifest['body'], { exact: unknown }>['exact'];

function exactBody(manifest: RequestManifest): ExactBody {
  if (!('exact' in manifest.body)) throw new Error(`the manifest has no exact body: ${JSON.stringify(manifest.body)}`);
  return manifest.body.exact;
}

function at(body: unknown, path: string): unknown {
  let node = body;
  for (const key of path.split('.'))
    node =
      typeof node === 'object' && node !== null && !Array.isArray(node)
        ? (node as Record<string, unknown>)[key]
        : undefined;
  return node;
}

/** The paths among `vocabulary` (and the manifest's own path) that the body carries. */
function present(body: unknown, vocabulary: readonly string[], claimed: string | null): string[] {
  const paths = new Set([...vocabulary, ...(claimed === null ? [] : [claimed])]);
  return [...paths].filter((path) => at(body, path) !== undefined).sort();
}

/** What the endpoint received is, byte for byte and field for field, what the manifest described. */
function expectCaptureMatches(label: string, manifest: RequestManifest, request: CapturedRequest): void {
  const facts = exactBody(manifest);
  const text = request.bytes.toString('utf8');
  const received = JSON.parse(text) as Record<string, unknown>;
  // An RFC 8785 library that is not cw's own, over what arrived.
  expect(sha256(canonicalize(received) as string), `${label}: body_sha256`).toBe(facts.body_sha256);
  expect(sha256(request.bytes), `${label}: body_wire_sha256`).toBe(facts.body_wire_sha256);
  expect(request.bytes.byteLength, `${label}: body_wire_bytes`).toBe(facts.body_wire_bytes);
  // The prompt's bytes reached the wire unchanged.
  expect(text, label).toContain(JSON.stringify(PROMPT).slice(1, -1));

  const controls = facts.reasoning_wire_control_keys;
  expect(
    [
      ...Object.keys(received).filter((key) => REASONING_KEYS.includes(key) || controls.includes(key)),
      ...NESTED_REASONING_PATHS.filter((path) => at(received, path) !== undefined),
    ].sort(),
    `${label}: reasoning keys`,
  ).toEqual([...controls].sort());
  const effortSource = facts.reasoning_wire_effort_source;
  expect(present(received, EFFORT_PATHS, effortSource), `${label}: effort path`).toEqual(
    effortSource === null ? [] : [effortSource],
  );
  if (effortSource !== null) expect(at(received, effortSource), `${label}: effort`).toBe(facts.reasoning_wire_effort);
  else expect(facts.reasoning_wire_effort, label).toBeNull();
  const budgetSource = facts.reasoning_wire_budget_source;
  expect(present(received, BUDGET_PATHS, budgetSource), `${label}: budget path`).toEqual(
    budgetSource === null ? [] : [budgetSource],
  );
  if (budgetSource !== null)
    expect(at(received, budgetSource), `${label}: budget`).toBe(facts.reasoning_wire_budget_tokens);
  const capField = facts.wire_output_cap_field;
  expect(present(received, CAP_PATHS, capField), `${label}: cap field`).toEqual(capField === null ? [] : [capField]);
  if (capField !== null) expect(at(received, capField), `${label}: cap`).toBe(facts.wire_output_cap_tokens);
  else expect(facts.wire_output_cap_tokens, label).toBeNull();
}

/** The scenario's own inputs show in the manifest, so a cell cannot quietly test less than it says. */
function expectScenarioShows(cell: MatrixCell, manifest: RequestManifest): void {
  const label = cellName(cell);
  const scenario = scenarioOf(cell);
  expect(manifest.session.stored_message_count, label).toBe(scenario.history.length);
  const tier = scenario.config['reasoning'];
  if (tier !== undefined) expect(manifest.session.requested_reasoning, label).toBe(tier);
  if (cell.scenario === 'tools') {
    const tools = 'exact' in manifest.tools ? manifest.tools.exact : null;
    expect(tools?.projection.relaxed_count, label).toBeGreaterThan(0);
    // Gemini's names admit the dot that other wires refuse, so there the dotted tool is kept whole.
    const keepsDottedNames = 'exact' in manifest.route && manifest.route.exact.dialect === 'gemini-generate-content';
    if (keepsDottedNames) expect(tools?.projection.omitted_count, label).toBe(0);
    else expect(tools?.projection.omitted_count, label).toBeGreaterThan(0);
  }
}

/** The one request the endpoint received while `run` ran. */
async function captureOne(endpoint: CaptureEndpoint, run: () => Promise<unknown>): Promise<CapturedRequest> {
  const before = endpoint.captured.length;
  await run();
  const arrived = endpoint.captured.slice(before);
  expect(arrived).toHaveLength(1);
  return arrived[0] as CapturedRequest;
}

function keyOf(request: CapturedRequest): string | null {
  const bearer = request.headers['authorization'];
  if (typeof bearer === 'string') return bearer.replace(/^Bearer /, '');
  // Routes that carry the key in a header of their own name it in their row; these are the built-ins'.
  for (const name of ['x-api-key', 'x-goog-api-key']) {
    const header = request.headers[name];
    if (typeof header === 'string') return header;
  }
  return null;
}

let endpoint: CaptureEndpoint;
const homes: string[] = [];
const covered = { sendTurn: 0, cli: 0, child: 0 };

/**
 * A home for one cell, its history where the path under test reads it: `cli` for cw run in this
 * repository (its workspace's session), `snapshot` for a snapshot loaded without a working folder
 * (the session kept by name only).
 */
async function cellHome(cell: MatrixCell, path: 'cli' | 'snapshot'): Promise<string> {
  const home = await tempHome(cellConfig(cell, TRANSPORT));
  homes.push(home);
  const { history } = scenarioOf(cell);
  if (history.length > 0) await writeSession(home, 'default', [...history], path === 'cli' ? REPO_ROOT : null);
  return home;
}

beforeAll(async () => {
  endpoint = await startCaptureEndpoint();
});
afterAll(async () => {
  await endpoint.close();
  await Promise.all(homes.map(removeHome));
  const total = covered.sendTurn + covered.cli + covered.child;
  console.log(
    `parity matrix: ${total} scenarios covered: ${covered.sendTurn} through sendTurn (${matrixRoutes(registry).length} routes × ${ENTRYPOINTS.length} entry points × ${Object.keys(SCENARIOS).length} bodies), ${covered.cli} through cw preview-request and cw send in process, ${covered.child} through a cw child process`,
  );
});

describe('preview, then send to a local endpoint: every route, both entry points, five bodies', () => {
  it('the matrix holds every built-in route and every scenario', () => {
    expect(registry.problems).toEqual([]);
    // The 18 rows the built-in plugins shipped with when the matrix was written; more only adds cells.
    expect(registry.rows.length).toBeGreaterThanOrEqual(18);
    expect(CELLS).toHaveLength((registry.rows.length + 3) * ENTRYPOINTS.length * Object.keys(SCENARIOS).length);
  });

  for (const cell of CELLS) {
    it(cellName(cell), async () => {
      const home = await cellHome(cell, 'snapshot');
      const snapshot = (scenarioOf(cell).adjust ?? ((loaded) => loaded))(await snapshotOf(home, registry));
      const { manifest, prepared } = previewRequest(snapshot, PROMPT, cell.entrypoint);
      expectValidManifest(manifest);
      expectScenarioShows(cell, manifest);
      if (prepared === null) throw new Error(`${cellName(cell)} is blocked`);
      endpoint.answerAs(prepared.dialect as WireDialect);

      let sent: Awaited<ReturnType<typeof sendTurn>> | undefined;
      const request = await captureOne(endpoint, async () => {
        sent = await sendTurn(snapshot, {
          home,
          prompt: PROMPT,
          entrypoint: cell.entrypoint,
          env: { [TEST_ORIGIN_ENV]: endpoint.origin, [TEST_MODE_ENV]: TEST_MODE_MARKER, ...KEYS },
        });
      });
      expectCaptureMatches(cellName(cell), manifest, request);
      const routeUrl = new URL(prepared.url);
      expect(request.path).toBe(`${routeUrl.pathname}${routeUrl.search}`);
      expect(keyOf(request)).toBe(prepared.apiKeyEnv === null ? null : FAKE_KEY);
      // Every route's request names cw, as the manifest said it would (docs/transport.md).
      expect(request.headers['user-agent'], cellName(cell)).toBe(userAgent());
      expect('exact' in manifest.route && manifest.route.exact.request_headers.user_agent).toBe(userAgent());
      if (cell.scenario === 'tools') {
        // The omitted tool is absent from the wire exactly when the manifest says it was omitted.
        const tools = 'exact' in manifest.tools ? manifest.tools.exact : null;
        const sentTool = request.bytes.toString('utf8').includes(`"${OMITTED_TOOL.name}"`);
        expect(sentTool).toBe(tools?.projection.omitted_count === 0);
      }
      // What send reports as sent is what preview described, and the reply was read and saved.
      expect(sent?.manifest ? exactBody(sent.manifest).body_sha256 : null).toBe(exactBody(manifest).body_sha256);
      expect(sent?.reply.text).toBe(REPLY_TEXT);
      expect(await readSession(home, 'default')).toHaveLength(scenarioOf(cell).history.length + 2);
      covered.sendTurn += 1;
    });
  }
});

describe('the same through the cw commands a person runs', () => {
  // The tools scenario adds MCP tools to a loaded snapshot, which the commands cannot be handed
  // without a live MCP server: it runs through sendTurn above only.
  const cliCells = CELLS.filter((cell) => scenarioOf(cell).adjust === undefined);
  // The commands read this process's environment; it is restored when the block ends.
  const names = [TEST_ORIGIN_ENV, TEST_MODE_ENV, 'CW_HOME', ...Object.keys(KEYS)];
  const saved = new Map(names.map((name) => [name, process.env[name]]));

  beforeAll(() => {
    Object.assign(process.env, { [TEST_ORIGIN_ENV]: endpoint.origin, [TEST_MODE_ENV]: TEST_MODE_MARKER, ...KEYS });
  });
  afterAll(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  for (const cell of cliCells) {
    it(`cw send: ${cellName(cell)}`, async () => {
      const home = await cellHome(cell, 'cli');
      process.env['CW_HOME'] = home;
      const flags = cell.entrypoint === 'blocking' ? ['--blocking'] : [];
      const preview = await runCw(['preview-request', 'json', ...flags, '--prompt', PROMPT]);
      expect(preview.stderr).toBe('');
      expect(preview.exitCode).toBe(0);
      expectValidManifest(preview.stdout);
      const manifest = JSON.parse(preview.stdout) as RequestManifest;
      expectScenarioShows(cell, manifest);
      if (!('exact' in manifest.route)) throw new Error(`${cellName(cell)}: no exact route`);
      endpoint.answerAs(manifest.route.exact.dialect as WireDialect);

      const request = await captureOne(endpoint, async () => {
        const sent = await runCw(['send', '--approval', 'never', ...flags, '--prompt', PROMPT]);
        expect(sent.stderr).toBe('');
        expect(sent.exitCode).toBe(0);
        expect(sent.stdout).toContain(REPLY_TEXT);
      });
      expectCaptureMatches(`cli ${cellName(cell)}`, manifest, request);
      expect(await sessionMessages(home)).toHaveLength(scenarioOf(cell).history.length + 2);
      covered.cli += 1;
    });
  }
});

describe('the test origin from a cw child process', () => {
  const folders = tempFolders();
  afterAll(() => folders.cleanup());
  const cell: MatrixCell = { route: 'anthropic', entrypoint: 'streaming', scenario: 'long-history' };
  const childEnv = async (home: string): Promise<Record<string, string>> => ({
    CW_HOME: home,
    CW_DATA_DIR: await folders.make('cw-data-'),
    [TEST_ORIGIN_ENV]: endpoint.origin,
    [TEST_MODE_ENV]: TEST_MODE_MARKER,
    ...KEYS,
  });

  it('sends exactly the previewed bytes to the loopback endpoint', async () => {
    const home = await cellHome(cell, 'cli');
    const env = await childEnv(home);
    const preview = await runCwChild(['preview-request', 'json', '--prompt', PROMPT], env);
    expect(preview.code).toBe(0);
    const manifest = JSON.parse(preview.stdout) as RequestManifest;
    endpoint.answerAs('anthropic-messages');
    const request = await captureOne(endpoint, async () => {
      const sent = await runCwChild(['send', '--approval', 'never', '--prompt', PROMPT], env);
      expect(sent.stderr).toBe('');
      expect(sent.code).toBe(0);
    });
    expectCaptureMatches(`child ${cellName(cell)}`, manifest, request);
    covered.child += 1;
  });

  it('refuses a real-looking key: nothing reaches the endpoint and the key is never printed', async () => {
    const home = await cellHome(cell, 'cli');
    const realish = 'sk-ant-api03-7Hq2mZp9Lx4Vb8Nw3Kd6Rt1Ys5Cf0Gj';
    const env = { ...(await childEnv(home)), ANTHROPIC_API_KEY: realish };
    const before = endpoint.captured.length;
    const sent = await runCwChild(['send', '--prompt', PROMPT], env);
    expect(sent.code).toBe(1);
    expect(withoutNoSandboxNotice(sent.stderr)).toBe(
      `cw: ${TEST_ORIGIN_ENV} is a test-only setting and carries only fake keys (sk-test-000…), but ANTHROPIC_API_KEY holds another value; unset it to use the route's own endpoint; nothing was sent\n`,
    );
    expect(sent.stdout + sent.stderr).not.toContain(realish);
    expect(endpoint.captured.length).toBe(before);
    expect(await sessionMessages(home)).toHaveLength(scenarioOf(cell).history.length);
  });

  it('refuses a test origin without the test-mode marker', async () => {
    const home = await cellHome(cell, 'cli');
    const { [TEST_MODE_ENV]: _marker, ...env } = await childEnv(home);
    const before = endpoint.captured.length;
    const sent = await runCwChild(['send', '--prompt', PROMPT], env);
    expect(sent.code).toBe(1);
    expect(sent.stderr).toContain(`only together with ${TEST_MODE_ENV}=${TEST_MODE_MARKER}`);
    expect(endpoint.captured.length).toBe(before);
  });
});
