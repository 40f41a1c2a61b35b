// What a third-party plugin cannot do, however it is written: take over a built-in route id, move a
// route it does not own (and with it the user's key) to another host, or print into cw's output.
// The fixtures in test/fixtures/trust-plugins are linked with `cw plugins link` into a temp
// CW_DATA_DIR and cw runs as a child process of the BUILT CLI (run `npm run build` first); the same
// cases are then checked in-process through loadPlugins.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  loadPlugins,
  loadSnapshot,
  previewRequest,
  resolveRoute,
  tapCoreStages,
  type PluginDescriptor,
  type PluginRegistry,
} from '@cw/core';
import { FAKE_KEY, REPO_ROOT, builtinPluginDescriptors, removeHome, tempHome } from './support/cw-fixture.js';
import { data, sse, startFaultServer, type FaultServer } from './support/fault-server.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { runCwChild, tempFolders, type CwExit } from './support/spawn-cw.js';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/trust-plugins');
const STEALS = 'cw-fixture-steals-deepseek';
const HIJACKS = 'cw-fixture-hijacks-route';
const NOISY = 'cw-fixture-noisy-loader';
const KEY_ENV = 'CW_TRUST_KEY';
const TIMEOUTS = {
  timeouts: { connect_ms: 2_000, first_byte_ms: 5_000, idle_ms: 5_000, total_ms: 20_000 },
  retries: { initial_delay_ms: 1, max_delay_ms: 5 },
};

interface RouteSection {
  readonly exact?: {
    readonly route_id: string;
    readonly registered_by: string;
    readonly endpoint_host_class: string;
    readonly endpoint_fingerprint: string;
    readonly route_defined_by: string;
  };
  readonly unavailable?: { readonly reason: string; readonly detail: string | null };
}
interface Manifest {
  readonly route: RouteSection;
  readonly body: { readonly exact?: unknown; readonly unavailable?: { readonly reason: string } };
}

const folders = tempFolders();
const homes: string[] = [];
let legit: FaultServer;
let thief: FaultServer;
let baseline: NonNullable<RouteSection['exact']>;

/** A temp CW_DATA_DIR with the named fixtures linked, the way a user links a plugin. */
async function dataDirWith(...fixtures: string[]): Promise<string> {
  const dataDir = await folders.make('cw-data-');
  for (const fixture of fixtures) {
    const link = await runCwChild(['plugins', 'link', join(FIXTURES, fixture), '--no-install'], {
      CW_DATA_DIR: dataDir,
    });
    expect(link.code, link.stderr).toBe(0);
  }
  return dataDir;
}

async function home(config?: unknown): Promise<string> {
  const folder = await tempHome(config);
  homes.push(folder);
  return folder;
}

async function preview(env: Record<string, string>): Promise<{ manifest: Manifest; run: CwExit }> {
  const run = await runCwChild(['preview-request', 'json', '--prompt', 'hi'], env);
  expect(run.code, run.stderr).toBe(0);
  return { manifest: JSON.parse(run.stdout) as Manifest, run };
}

/** A user route on the legit server, with its own key variable. */
function configRoute(): Record<string, unknown> {
  return {
    route: 'mine',
    routes: {
      mine: {
        provider: 'custom',
        dialect: 'chat-completions',
        base_url: `${legit.origin}/v1`,
        model: 'm',
        api_key_env: KEY_ENV,
      },
    },
    ...TIMEOUTS,
  };
}

beforeAll(async () => {
  legit = await startFaultServer();
  thief = await startFaultServer();
  // The deepseek route as cw resolves it with no third-party plugin at all.
  const { manifest } = await preview({ CW_HOME: await home(), CW_DATA_DIR: await folders.make('cw-data-') });
  if (!manifest.route.exact) throw new Error('the built-in deepseek route did not resolve');
  baseline = manifest.route.exact;
});
afterAll(async () => {
  await legit.close();
  await thief.close();
  await Promise.all(homes.map(removeHome));
  await folders.cleanup();
});

describe('a plugin registering a built-in route id (cw plugins link)', () => {
  it('does not replace the built-in row; the collision is reported as its problem', async () => {
    const env = { CW_HOME: await home(), CW_DATA_DIR: await dataDirWith('steals-deepseek') };
    const { manifest, run } = await preview(env);
    expect(manifest.route.exact).toEqual(baseline);
    expect(manifest.route.exact?.registered_by).toBe('@cw/provider-deepseek');
    expect(manifest.route.exact?.endpoint_host_class).toMatch(/^https remote /);
    expect(manifest.route.exact?.endpoint_host_class).not.toContain('loopback');
    expect(run.stderr).toContain(`cw: warning: plugin ${STEALS} had a route row rejected (duplicate-route)`);
    expect(run.stderr).not.toContain('@cw/provider-deepseek had');
  });
});

describe('a plugin answering resolveRoute for a route it does not own (cw plugins link)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await dataDirWith('hijacks-route');
  });

  it('moving the built-in deepseek route to loopback is refused in preview, naming the plugin', async () => {
    const { manifest } = await preview({ CW_HOME: await home(), CW_DATA_DIR: dataDir });
    expect(manifest.route.unavailable?.reason).toBe('route-plan-failed');
    expect(manifest.route.unavailable?.detail).toContain(HIJACKS);
    expect(manifest.route.unavailable?.detail).toContain('route deepseek');
    expect(manifest.body.exact).toBeUndefined();
  });

  it('cw send on the moved deepseek route exits 1 and sends nothing, with the DeepSeek key set', async () => {
    const before = thief.received.length;
    const run = await runCwChild(['send', '--prompt', 'hi'], {
      CW_HOME: await home(TIMEOUTS),
      CW_DATA_DIR: dataDir,
      DEEPSEEK_API_KEY: FAKE_KEY,
      CW_HIJACK_TARGET: `${thief.origin}/v1`,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(HIJACKS);
    expect(run.stdout + run.stderr).not.toContain(FAKE_KEY);
    expect(thief.received.length - before).toBe(0);
  });

  it("moving the user's config route to another host is refused in preview and send; neither host hears a thing", async () => {
    const env = {
      CW_HOME: await home(configRoute()),
      CW_DATA_DIR: dataDir,
      [KEY_ENV]: FAKE_KEY,
      CW_HIJACK_MODE: 'move-config',
      CW_HIJACK_TARGET: `${thief.origin}/v1`,
    };
    const { manifest } = await preview(env);
    expect(manifest.route.unavailable?.reason).toBe('route-plan-failed');
    expect(manifest.route.unavailable?.detail).toContain(HIJACKS);
    const before = { legit: legit.received.length, thief: thief.received.length };
    const run = await runCwChild(['send', '--prompt', 'hi'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(HIJACKS);
    expect({ legit: legit.received.length, thief: thief.received.length }).toEqual(before);
  });

  it('answering for deepseek with the same origin and key variable is allowed, and registered_by names the plugin', async () => {
    const { manifest } = await preview({
      CW_HOME: await home(),
      CW_DATA_DIR: dataDir,
      CW_HIJACK_MODE: 'keep-deepseek',
    });
    expect(manifest.route.exact).toEqual({ ...baseline, registered_by: HIJACKS });
  });

  it("answering for the user's config route with its own host and key variable is allowed: send goes there", async () => {
    const env = {
      CW_HOME: await home(configRoute()),
      CW_DATA_DIR: dataDir,
      [KEY_ENV]: FAKE_KEY,
      CW_HIJACK_MODE: 'keep-config',
    };
    const { manifest } = await preview(env);
    expect(manifest.route.exact?.registered_by).toBe(HIJACKS);
    expect(manifest.route.exact?.route_defined_by).toBe('user-config');
    expect(manifest.route.exact?.endpoint_host_class).toContain('loopback');
    legit.next(sse(data({ choices: [{ delta: { content: 'ok' }, finish_reason: 'stop' }] }), 'data: [DONE]\n\n'));
    const before = { legit: legit.received.length, thief: thief.received.length };
    const run = await runCwChild(['send', '--prompt', 'hi'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(legit.received.length - before.legit).toBe(1);
    expect(thief.received.length - before.thief).toBe(0);
    expect(legit.received.at(-1)?.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
  });
});

describe('a plugin that prints while it loads (cw plugins link)', () => {
  it('preview-request json: stdout is still one JSON document; a redacted warning names the plugin', async () => {
    const env = { CW_HOME: await home(), CW_DATA_DIR: await dataDirWith('noisy-loader') };
    const { manifest, run } = await preview(env);
    expectValidManifest(run.stdout);
    expect(manifest.route.exact).toEqual(baseline);
    expect(run.stdout).not.toContain('noisy ');
    expect(run.stderr).toContain(`plugin ${NOISY} `);
    expect(run.stderr).toContain('(wrote-output)');
    expect(run.stderr).toContain('wrote 116 bytes to stdout and 85 bytes to stderr');
    // What the plugin printed is discarded, not passed on: not its words, its key-shaped text or its path.
    expect(run.stderr).not.toContain('noisy ');
    expect(run.stderr).not.toContain('sk-test');
    expect(run.stderr).not.toContain('/home/someone');
  });

  it('send --json: stdout is still one JSON document', async () => {
    const env = {
      CW_HOME: await home(configRoute()),
      CW_DATA_DIR: await dataDirWith('noisy-loader'),
      [KEY_ENV]: FAKE_KEY,
    };
    legit.next(sse(data({ choices: [{ delta: { content: 'quiet' }, finish_reason: 'stop' }] }), 'data: [DONE]\n\n'));
    const run = await runCwChild(['send', '--json', '--prompt', 'hi'], env);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { reply: { text: string } }).reply.text).toBe('quiet');
    expect(run.stderr).toContain(`plugin ${NOISY} `);
    expect(run.stderr).not.toContain('noisy ');
  });
});

// ---- the same, in-process: loadPlugins and PluginRegistry.problems --------------------------------

async function fixtureDescriptor(fixture: string): Promise<PluginDescriptor> {
  const root = join(FIXTURES, fixture);
  const pjson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    cw: unknown;
  };
  return { name: pjson.name, version: pjson.version, root, cw: pjson.cw, type: 'link' };
}

/** Built-ins plus fixtures, the fixtures listed FIRST: the loader must still load the built-ins first. */
async function registryWith(...fixtures: string[]): Promise<PluginRegistry> {
  const linked = await Promise.all(fixtures.map(fixtureDescriptor));
  const registry = await loadPlugins([...linked, ...(await builtinPluginDescriptors())]);
  tapCoreStages(registry);
  return registry;
}

describe('in-process: loadPlugins', () => {
  afterEach(() => {
    delete process.env['CW_HIJACK_MODE'];
    delete process.env['CW_HIJACK_TARGET'];
  });

  it('a duplicate built-in route id is the later plugin’s problem; the built-in row stays', async () => {
    const registry = await registryWith('steals-deepseek');
    expect(registry.problems).toEqual([
      { plugin: STEALS, code: 'duplicate-route', detail: 'route deepseek is already registered' },
    ]);
    expect(registry.row('deepseek')?.plugin).toBe('@cw/provider-deepseek');
    expect(registry.row('deepseek')?.endpoint.base_url).toBe('https://api.deepseek.com');
    expect(registry.plugins.find((plugin) => plugin.name === STEALS)?.routeIds).toEqual([]);
  });

  it('a resolveRoute tap moving a route it does not own is a RoutePlanError naming the plugin; keeping it is allowed', async () => {
    const registry = await registryWith('hijacks-route');
    expect(registry.problems).toEqual([]);
    const folder = await home(configRoute());
    const snapshot = await loadSnapshot({ home: folder, registry, defaultRouteId: 'deepseek' });
    const query = (routeId: string) => ({ routeId, config: snapshot.config, row: (id: string) => registry.row(id) });

    expect(() => resolveRoute(registry.hooks, query('deepseek'))).toThrow(
      expect.objectContaining({ name: 'RoutePlanError', message: expect.stringContaining(`plugin ${HIJACKS}`) }),
    );
    process.env['CW_HIJACK_MODE'] = 'move-config';
    process.env['CW_HIJACK_TARGET'] = `${thief.origin}/v1`;
    const plan = previewRequest(snapshot, 'hi', 'streaming').plan;
    expect(plan).toMatchObject({ status: 'blocked', reason: 'route-plan-failed' });
    expect(plan.status === 'blocked' ? plan.detail : '').toContain(HIJACKS);

    process.env['CW_HIJACK_MODE'] = 'keep-deepseek';
    const kept = resolveRoute(registry.hooks, query('deepseek'));
    expect(kept.row.plugin).toBe(HIJACKS);
    expect(kept.row.endpoint.base_url).toBe('https://api.deepseek.com');
    process.env['CW_HIJACK_MODE'] = 'keep-config';
    const mine = resolveRoute(registry.hooks, query('mine'));
    expect(mine.row.plugin).toBe(HIJACKS);
    expect(mine.definedBy).toBe('user-config');
  });

  it('output written while a plugin loads is held back and reported as its wrote-output problem', async () => {
    const { stdout, stderr } = process;
    const writes = { out: stdout.write, err: stderr.write };
    const registry = await loadPlugins([await fixtureDescriptor('noisy-loader')]);
    expect(registry.problems).toEqual([
      {
        plugin: NOISY,
        code: 'wrote-output',
        detail: 'wrote 116 bytes to stdout and 85 bytes to stderr while loading; cw discarded them',
      },
    ]);
    // The plugin still loaded, and the streams are cw's own again.
    expect(registry.plugins.map((plugin) => plugin.name)).toEqual([NOISY]);
    expect(stdout.write).toBe(writes.out);
    expect(stderr.write).toBe(writes.err);
  });
});
