// END TO END, SLOW (two to three minutes; needs npm's public registry for third-party packages: the
// CLI's own dependencies and the plugin's build tools): a real npm registry (Verdaccio,
// test/support/local-registry.ts) on 127.0.0.1 with temporary storage. The test packs and publishes
// every package cw publishes (the core, the kit, every built-in plugin and @cw/cli) to it, and then
// works as a user would, with nothing from this repository: `npm i -g @cw/cli` into a clean prefix
// with a fresh npm cache, `cw --version`, a preview with no config and no key; `cw plugins new` (from
// that installed cw) writes a plugin, which installs, builds, passes its own tests and is published to
// the same registry; then `cw plugins install <name>` (the registry comes from npm's own
// configuration), `plugins:inspect`, `preview-request`, `send` to a local endpoint, `plugins update`
// and `plugins uninstall`. Run `npm run build` first; every child process has a timeout and the
// registry stops with the test.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_KEY, REPO_ROOT } from './support/cw-fixture.js';
import { data, sse, startFaultServer, type FaultServer } from './support/fault-server.js';
import {
  childEnv,
  runProcess,
  startLocalRegistry,
  type LocalRegistry,
  type ProcessExit,
} from './support/local-registry.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { tempFolders } from './support/spawn-cw.js';

const PLUGIN = 'cw-provider-acme';
const ROUTE = 'example-chat';
const KEY_ENV = 'EXAMPLE_API_KEY';
const NPM_INSTALL_MS = 240_000;
const STEP_MS = 60_000;

interface Manifest {
  readonly route: {
    readonly exact?: { readonly route_id: string; readonly registered_by: string; readonly wire_model: string };
    readonly unavailable?: { readonly reason: string; readonly detail: string | null };
  };
  readonly body: { readonly exact?: { readonly body_wire_sha256: string } };
}

interface Inspected {
  readonly name: string;
  readonly version: string;
  readonly type: string;
  readonly cw: {
    readonly api_version: number;
    readonly routes: { readonly route_id: string; readonly model: { readonly default: string } }[];
    readonly body_refiners: { readonly route_ids: string[]; readonly stage: number }[];
    readonly hook_taps: Record<string, number>;
    readonly problems: unknown[];
  };
}

const folders = tempFolders();
let registry: LocalRegistry | undefined;
let endpoint: FaultServer;
let work: string;
let plugin: string;
let dataDir: string;
let home: string;
/** The npm prefix `npm i -g @cw/cli` installs into, and its fresh cache. */
let prefix: string;

/** npm with the test's user config; `registry` also sends unscoped packages to the local registry. */
function npm(args: readonly string[], cwd: string, timeoutMs = STEP_MS): Promise<ProcessExit> {
  const local = registry as LocalRegistry;
  return runProcess('npm', args, {
    cwd,
    env: childEnv({ npm_config_userconfig: local.userconfig, npm_config_registry: local.url }),
    timeoutMs,
  });
}

/** The npm the plugin project installs with: `@cw` from the local registry, the rest from npm's default. */
function npmForCopy(args: readonly string[], timeoutMs: number): Promise<ProcessExit> {
  return runProcess('npm', args, {
    cwd: plugin,
    env: childEnv({ npm_config_userconfig: (registry as LocalRegistry).userconfig }),
    timeoutMs,
  });
}

/** The cw `npm i -g @cw/cli` installed, with its plugins in the temp data folder and npm pointed at the local registry. */
function cw(args: readonly string[], extra: Record<string, string> = {}): Promise<ProcessExit> {
  const local = registry as LocalRegistry;
  return runProcess(join(prefix, 'bin', 'cw'), args, {
    cwd: work,
    env: childEnv({
      CW_DATA_DIR: dataDir,
      CW_HOME: home,
      npm_config_userconfig: local.userconfig,
      npm_config_registry: local.url,
      ...extra,
    }),
    timeoutMs: STEP_MS,
  });
}

/** Every workspace cw publishes: the core, each folder under plugins/, and the CLI. */
async function publishedFolders(): Promise<string[]> {
  const plugins = (await readdir(join(REPO_ROOT, 'plugins'))).sort().map((name) => `plugins/${name}`);
  return ['core', ...plugins, 'cli'];
}

function succeeded(run: ProcessExit, what: string): void {
  expect(run.code, `${what}\n${run.stdout}\n${run.stderr}`).toBe(0);
}

async function inspect(): Promise<Inspected> {
  const run = await cw(['plugins:inspect', PLUGIN, '--json']);
  succeeded(run, 'plugins:inspect');
  return (JSON.parse(run.stdout) as Inspected[])[0] as Inspected;
}

async function preview(): Promise<Manifest> {
  const run = await cw(['preview-request', 'json', '--prompt', 'hi']);
  succeeded(run, 'preview-request');
  expectValidManifest(run.stdout);
  return JSON.parse(run.stdout) as Manifest;
}

/** Rewrites the copy's row file, as an author edits it. */
async function editRow(from: string, to: string): Promise<void> {
  const file = join(plugin, 'src', 'example-capability-rows.ts');
  const text = await readFile(file, 'utf8');
  expect(text).toContain(from);
  await writeFile(file, text.replaceAll(from, to));
}

beforeAll(
  async () => {
    work = await folders.make('cw-registry-e2e-');
    endpoint = await startFaultServer();
    registry = await startLocalRegistry(join(work, 'registry'));
    dataDir = join(work, 'data');
    home = join(work, 'home');
    await mkdir(home);
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({
        route: ROUTE,
        timeouts: { connect_ms: 2_000, first_byte_ms: 5_000, idle_ms: 5_000, total_ms: 20_000 },
        retries: { initial_delay_ms: 1, max_delay_ms: 5 },
      }),
    );

    // Every cw package, packed from this build and published as a release would be.
    const packs = join(work, 'packs');
    await mkdir(packs);
    const published = await publishedFolders();
    const packed = await npm(
      ['pack', ...published.flatMap((folder) => ['-w', folder]), '--pack-destination', packs, '--json'],
      REPO_ROOT,
    );
    succeeded(packed, 'npm pack');
    const tarballs = JSON.parse(packed.stdout) as { filename: string }[];
    expect(tarballs).toHaveLength(published.length);
    for (const { filename } of tarballs) {
      succeeded(await npm(['publish', join(packs, filename)], work), `npm publish ${filename}`);
    }

    // A user's install: a clean global prefix and a fresh cache; @cw from the registry, the rest from npm's.
    prefix = join(work, 'prefix');
    const installed = await runProcess('npm', ['install', '--global', '@cw/cli'], {
      cwd: work,
      env: childEnv({
        npm_config_userconfig: (registry as LocalRegistry).userconfig,
        npm_config_prefix: prefix,
        npm_config_cache: join(work, 'global-npm-cache'),
      }),
      timeoutMs: NPM_INSTALL_MS,
    });
    succeeded(installed, 'npm i -g @cw/cli');
  },
  2 * NPM_INSTALL_MS + 4 * STEP_MS,
);

afterAll(async () => {
  await registry?.stop();
  await endpoint?.close();
  await folders.cleanup();
});

describe('install by name from a real registry (Verdaccio on 127.0.0.1; slow)', () => {
  it(
    'npm i -g @cw/cli gives a cw, installed from the registry, that previews exactly with no config and no key',
    async () => {
      // The installed CLI and its core are files in the prefix, not links into this repository.
      const cliRoot = await realpath(join(prefix, 'lib', 'node_modules', '@cw', 'cli'));
      expect(cliRoot.startsWith(prefix)).toBe(true);
      const version = await cw(['--version']);
      succeeded(version, 'cw --version');
      expect(version.stdout).toMatch(/^@cw\/cli\/0\.1\.0 \S+ node-v\d+/);
      const bareHome = join(work, 'bare-home');
      await mkdir(bareHome);
      const run = await cw(['preview-request', 'json', '--prompt', 'hi'], { CW_HOME: bareHome });
      succeeded(run, 'preview-request with no config');
      expectValidManifest(run.stdout);
      const manifest = JSON.parse(run.stdout) as Manifest;
      expect(manifest.route.exact?.route_id).toBe('deepseek');
      expect(manifest.route.exact?.registered_by).toBe('@cw/provider-deepseek');
      expect(manifest.body.exact?.body_wire_sha256).toMatch(/^[0-9a-f]{64}$/);
    },
    STEP_MS,
  );

  it(
    'cw plugins new, from the installed cw, writes a plugin that installs, builds and passes its own tests',
    async () => {
      const made = await cw([
        'plugins',
        'new',
        PLUGIN,
        '--route-id',
        ROUTE,
        '--key-env',
        KEY_ENV,
        '--base-url',
        `${endpoint.origin}/v1`,
      ]);
      succeeded(made, 'cw plugins new');
      plugin = join(work, PLUGIN);
      succeeded(await npmForCopy(['install'], NPM_INSTALL_MS), 'npm install in the new plugin');
      const tested = await npmForCopy(['test'], 2 * STEP_MS);
      succeeded(tested, 'npm test in the new plugin');
      expect(tested.stdout).toMatch(/Tests\s+\d+ passed/);
      expect(tested.stdout).not.toMatch(/\bfailed\b/);
      // Its cw packages came from the tarballs the installed cw wrote beside it, not from a registry.
      const lock = JSON.parse(await readFile(join(plugin, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { resolved?: string }>;
      };
      expect(lock.packages['node_modules/@cw/core']?.resolved).toBe('file:cw-packages/cw-core-0.1.0.tgz');
    },
    NPM_INSTALL_MS + 3 * STEP_MS,
  );

  it(
    'cw plugins install <name> takes it from the registry npm is configured with, and prints what it registered',
    async () => {
      succeeded(await npm(['publish'], plugin), 'npm publish of the plugin');
      const installed = await cw(['plugins', 'install', PLUGIN]);
      succeeded(installed, 'cw plugins install');
      expect(installed.stdout).toContain(`${PLUGIN} 0.1.0 (plugin API 3) registered:`);
      expect(installed.stdout).toContain(`route ${ROUTE}: dialect chat-completions, model example-model`);
      expect(installed.stdout).toContain(`body refiner at stage 100 for route ${ROUTE}`);
      expect(installed.stdout).toContain('hook taps: buildBody ×1');
      expect(installed.stderr).not.toContain('warning');
      // The kit it uses is bundled into its dist/plugin.js: no @cw package was installed beside it.
      await expect(readFile(join(dataDir, 'node_modules', '@cw', 'plugin-kit', 'package.json'))).rejects.toMatchObject({
        code: 'ENOENT',
      });
    },
    3 * STEP_MS,
  );

  it(
    'plugins:inspect shows its rows, its refiner and its hook taps',
    async () => {
      const facts = await inspect();
      expect(facts).toMatchObject({ name: PLUGIN, version: '0.1.0', type: 'user' });
      expect(facts.cw.api_version).toBe(3);
      expect(facts.cw.problems).toEqual([]);
      expect(facts.cw.routes.map((route) => [route.route_id, route.model.default])).toEqual([[ROUTE, 'example-model']]);
      expect(facts.cw.body_refiners).toEqual([{ route_ids: [ROUTE], route_shapes: [], stage: 100 }]);
      expect(facts.cw.hook_taps).toEqual({
        resolveRoute: 0,
        projectTools: 0,
        buildBody: 1,
        'turn.gate': 0,
        'turn.loadState': 0,
        'turn.prepareTurn': 0,
        'turn.transformsDue': 0,
        'turn.resolveBlock': 0,
        'turn.openSend': 0,
        'turn.closeSend': 0,
        'turn.stepTools': 0,
        'turn.afterRequest': 0,
        'turn.afterSave': 0,
        'turn.describeSession': 0,
      });
      const tree = await cw(['plugins:inspect', PLUGIN]);
      succeeded(tree, 'plugins:inspect');
      expect(tree.stdout).toContain(`cw routes (1)\n│  └─ ${ROUTE}`);
      expect(tree.stdout).toContain('cw hook taps\n   └─ buildBody ×1');
      expect(tree.stdout).not.toMatch(/^[├└]─ commands$/m);
    },
    3 * STEP_MS,
  );

  it(
    'previews its route exactly, and cw send puts the previewed bytes on the wire',
    async () => {
      const manifest = await preview();
      expect(manifest.route.exact).toMatchObject({
        route_id: ROUTE,
        registered_by: PLUGIN,
        wire_model: 'example-model',
      });
      const previewed = manifest.body.exact?.body_wire_sha256;
      expect(previewed).toMatch(/^[0-9a-f]{64}$/);

      endpoint.next(
        sse(
          data({ choices: [{ delta: { content: 'parity ok' } }] }),
          data({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 3 } }),
          'data: [DONE]\n\n',
        ),
      );
      const sent = await cw(['send', '--prompt', 'hi'], { [KEY_ENV]: FAKE_KEY });
      succeeded(sent, 'cw send');
      expect(sent.stdout).toContain('parity ok');
      expect(endpoint.received).toHaveLength(1);
      const [request] = endpoint.received;
      expect(request?.path).toBe('/v1/chat/completions');
      expect(request?.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
      expect(
        createHash('sha256')
          .update(request?.body ?? '', 'utf8')
          .digest('hex'),
      ).toBe(previewed);
    },
    3 * STEP_MS,
  );

  it(
    'cw plugins update brings the newer release',
    async () => {
      await editRow("'example-model'", "'acme-model-2'");
      succeeded(await npm(['version', '0.2.0', '--no-git-tag-version'], plugin), 'npm version');
      succeeded(await npm(['publish'], plugin), 'npm publish of 0.2.0');
      succeeded(await cw(['plugins', 'update']), 'cw plugins update');
      const facts = await inspect();
      expect(facts.version).toBe('0.2.0');
      expect(facts.cw.routes.map((route) => route.model.default)).toEqual(['acme-model-2']);
      expect((await preview()).route.exact?.wire_model).toBe('acme-model-2');
    },
    3 * STEP_MS,
  );

  it(
    'cw plugins uninstall removes its routes',
    async () => {
      succeeded(await cw(['plugins', 'uninstall', PLUGIN]), 'cw plugins uninstall');
      const routes = await cw(['routes', '--json']);
      succeeded(routes, 'cw routes');
      const listed = JSON.parse(routes.stdout) as { routes: { route_id: string }[] };
      expect(listed.routes.map((route) => route.route_id)).not.toContain(ROUTE);
      expect(listed.routes.length).toBeGreaterThan(0);
      const manifest = await preview();
      expect(manifest.route.unavailable?.detail).toContain(`route ${ROUTE} is not registered`);
    },
    3 * STEP_MS,
  );

  it(
    'refuses a plugin made for another plugin API version, and leaves nothing installed',
    async () => {
      const old = join(work, 'cw-provider-old');
      await mkdir(old);
      await writeFile(
        join(old, 'package.json'),
        JSON.stringify({
          name: 'cw-provider-old',
          version: '1.0.0',
          type: 'module',
          cw: { apiVersion: 1, register: './index.js' },
          oclif: {},
        }),
      );
      await writeFile(join(old, 'index.js'), 'export function register() {}\n');
      succeeded(await npm(['publish'], old), 'npm publish of the old plugin');
      const refused = await cw(['plugins', 'install', 'cw-provider-old']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        'cw: plugin cw-provider-old declares cw.apiVersion 1, but this cw speaks plugin API version 3',
      );
      const pjson = JSON.parse(await readFile(join(dataDir, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        oclif: { plugins: { name: string }[] };
      };
      expect(pjson.oclif.plugins.map((entry) => entry.name)).not.toContain('cw-provider-old');
      expect(Object.keys(pjson.dependencies ?? {})).not.toContain('cw-provider-old');
      await expect(readFile(join(dataDir, 'node_modules', 'cw-provider-old', 'package.json'))).rejects.toMatchObject({
        code: 'ENOENT',
      });
    },
    3 * STEP_MS,
  );
});
