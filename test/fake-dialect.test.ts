// A dialect the core has never seen, with key names none of the built-in dialects use, loaded from a
// fixture package the way a third party's would be. The manifest must be exact for it, and send must
// decode its replies, with no change to the core: the core reads every wire fact from the dialect.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  loadPlugins,
  loadSnapshot,
  previewRequest,
  runTurn,
  sendTurn,
  tapCoreStages,
  type CwSnapshot,
  type PluginRegistry,
} from '@cw/core';
import { planTurn } from '../core/src/plan-turn.js';
import { ProviderError } from '../core/src/transport/provider-error.js';
import {
  builtinPluginDescriptors,
  DEFAULT_ROUTE_ID,
  FAKE_KEY,
  REPO_ROOT,
  removeHome,
  tempHome,
} from './support/cw-fixture.js';
import { HISTORY_WITH_TOOL_RESULTS } from './support/manifest-preview.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { readTurn } from './support/turn-events.js';

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'dialect-plugins', 'fake-wire');
const ORIGIN = 'http://127.0.0.1:18090';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const canonicalBytes = (value: unknown): number => Buffer.byteLength(canonicalize(value) ?? '', 'utf8');

async function fakeRegistry(): Promise<PluginRegistry> {
  const registry = await loadPlugins([
    ...(await builtinPluginDescriptors()),
    {
      name: 'cw-fixture-fake-wire',
      version: '1.0.0',
      root: FIXTURE,
      cw: { apiVersion: 3, register: './index.js' },
      type: 'link',
    },
  ]);
  tapCoreStages(registry);
  return registry;
}

describe('a fourth dialect with its own key names', () => {
  const homes: string[] = [];
  let registry: PluginRegistry;
  const snapshotWith = async (config: Record<string, unknown>, history: unknown[] = []): Promise<CwSnapshot> => {
    const home = await tempHome(config);
    homes.push(home);
    if (history.length > 0) {
      const { writeSession } = await import('./support/cw-fixture.js');
      await writeSession(home, 'default', history, null);
    }
    return loadSnapshot({ home, registry, defaultRouteId: DEFAULT_ROUTE_ID });
  };
  beforeAll(async () => {
    registry = await fakeRegistry();
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });
  afterAll(async () => {
    nock.enableNetConnect();
    await Promise.all(homes.map(removeHome));
  });

  it('loads with no problems and registers its dialect', () => {
    expect(registry.problems.filter((problem) => problem.plugin === 'cw-fixture-fake-wire')).toEqual([]);
    expect(registry.dialect('fake-wire')?.plugin).toBe('cw-fixture-fake-wire');
    expect(registry.plugins.find((plugin) => plugin.name === 'cw-fixture-fake-wire')?.dialectIds).toEqual([
      'fake-wire',
    ]);
  });

  it('previews exactly: every wire fact comes from its describer and its row', async () => {
    const snapshot = await snapshotWith({ route: 'fake-route' }, [...HISTORY_WITH_TOOL_RESULTS]);
    const { manifest, prepared } = previewRequest(snapshot, 'fix the failing test', 'streaming');
    expectValidManifest(manifest);
    if (!('exact' in manifest.body) || !('exact' in manifest.route) || !('exact' in manifest.tools) || !prepared) {
      throw new Error(`not exact: ${JSON.stringify(manifest)}`);
    }
    // The fixture dialect's own body shape, as its buildBody writes it.
    const body = prepared.body as {
      parts: unknown[];
      functions: unknown[];
      limits: { max_out: number };
    };
    const facts = manifest.body.exact;
    expect(manifest.route.exact.dialect).toBe('fake-wire');
    expect(manifest.route.exact.body_stream_field).toBe(true);
    expect(facts.wire_output_cap_field).toBe('limits.max_out');
    expect(facts.wire_output_cap_tokens).toBe(body.limits.max_out);
    expect(facts.reasoning_wire_control_keys).toEqual(['brain']);
    expect(facts.reasoning_wire_effort).toBe('hi');
    expect(facts.reasoning_wire_effort_source).toBe('brain.level');
    expect(facts.reasoning_resolution).toBe('route-default');
    expect(facts.tool_choice).toBe('auto');
    // Byte classes, measured independently over the fake keys.
    const system = canonicalBytes(body.parts[0]);
    const tools = canonicalBytes(body.functions);
    const messages = canonicalBytes(body.parts) - system;
    expect(facts.system_canonical_json_bytes).toBe(system);
    expect(facts.tool_schema_canonical_json_bytes).toBe(tools);
    expect(facts.message_canonical_json_bytes).toBe(messages);
    expect(facts.body_canonical_json_bytes).toBe(system + tools + messages + facts.framing_canonical_json_bytes);
    expect(facts.body_canonical_json_bytes).toBe(canonicalBytes(body));
    expect(facts.message_count).toBe(HISTORY_WITH_TOOL_RESULTS.length + 1);
    expect(facts.tool_result_canonical_json_bytes).toBe(canonicalBytes(body.parts[3]));
    expect(facts.tool_schema_wire_sha256).toBe(sha256(canonicalize(body.functions) ?? ''));
    expect(facts.body_sha256).toBe(sha256(canonicalize(body) ?? ''));
    expect(manifest.tools.exact.active_tool_count).toBe(body.functions.length);
  });

  it('reports a named tool choice and a blocking body the way its describer reads them', async () => {
    const snapshot = await snapshotWith({ route: 'fake-route', reasoning: 'low' });
    const { manifest } = previewRequest(snapshot, 'hello', 'blocking');
    if (!('exact' in manifest.body) || !('exact' in manifest.route)) throw new Error('not exact');
    expect(manifest.route.exact.body_stream_field).toBe(false);
    expect(manifest.body.exact.reasoning_wire_effort).toBe('lo');
    expect(manifest.body.exact.reasoning_resolution).toBe('explicit');
  });

  it('sends the previewed bytes and decodes its newline-delimited replies', async () => {
    const snapshot = await snapshotWith({ route: 'fake-route' });
    const plan = planTurn(snapshot, 'hello', 'streaming');
    if (plan.status !== 'ready') throw new Error('blocked');
    let captured = '';
    nock(ORIGIN)
      .post('/api/talk', (body) => {
        captured = JSON.stringify(body);
        return true;
      })
      .reply(200, '{"say":"hel"}\n{"say":"lo"}\n{"fin":"done","used":{"in":12,"out":3}}\n', {
        'content-type': 'application/x-ndjson',
      });
    const home = homes[homes.length - 1] as string;
    const deltas: string[] = [];
    const sent = await readTurn(
      runTurn(snapshot, { home, prompt: 'hello', entrypoint: 'streaming', env: { FAKE_WIRE_KEY: FAKE_KEY } }),
      (event) => (event.type === 'text-delta' ? deltas.push(event.text) : undefined),
    );
    expect(sha256(canonicalize(JSON.parse(captured)) ?? '')).toBe(sha256(plan.prepared.canonical.text));
    expect(deltas).toEqual(['hel', 'lo']);
    expect(sent.reply).toEqual({
      text: 'hello',
      toolCalls: [],
      usage: { input_tokens: 12, output_tokens: 3 },
      replay: [],
    });
    expect(sent.finishReason).toBe('done');
    const session = JSON.parse(await readFile(join(home, 'sessions', 'default.json'), 'utf8'));
    expect(session.messages).toHaveLength(2);
  });

  it('a reply its decoder never finishes is a failure, and the session is not written', async () => {
    const snapshot = await snapshotWith({ route: 'fake-route' });
    nock(ORIGIN).post('/api/talk').reply(200, '{"say":"partial"}\n', { 'content-type': 'application/x-ndjson' });
    const home = homes[homes.length - 1] as string;
    const attempt = sendTurn(snapshot, {
      home,
      prompt: 'hello',
      entrypoint: 'streaming',
      env: { FAKE_WIRE_KEY: FAKE_KEY },
    });
    await expect(attempt).rejects.toBeInstanceOf(ProviderError);
    await expect(attempt).rejects.toMatchObject({ kind: 'incomplete' });
    await expect(readFile(join(home, 'sessions', 'default.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
