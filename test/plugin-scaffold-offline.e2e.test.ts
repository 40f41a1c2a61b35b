// END TO END, SLOW (about a minute; uses npm's public registry for the scaffold's third-party
// devDependencies — typescript, vitest, esbuild — as test/registry-install.e2e.test.ts does): a plugin
// author's first steps with nothing copied from this repository by hand. `cw plugins new` writes the
// project into a temp folder outside the repository; `npm install` runs with a fresh npm cache and no
// npm configuration of the machine's own, npm's default registry for third-party packages (no @cw
// package is on it) and the @cw scope pointed at a loopback server that answers 404 and counts what it
// is asked: it must be asked nothing. A second install runs with `--offline` from that cache (no network at all) after
// removing node_modules and the lockfile: the @cw packages were never in the cache, so they can only
// have come from the tarballs inside the project. Then `npm test`, `npm pack`, and the built CLI
// installs the tarball, inspects it and previews its route exactly, with npm's registry unreachable.
// Run `npm run build` first; every child process has a timeout.
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CW_BIN } from './support/cw-fixture.js';
import { childEnv, closedPort, runProcess, type ProcessExit } from './support/local-registry.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { tempFolders } from './support/spawn-cw.js';

const PLUGIN = 'cw-provider-acme';
const ROUTE = 'acme';
const NPM_INSTALL_MS = 240_000;
const STEP_MS = 60_000;

const folders = tempFolders();
let work: string;
let project: string;
let npmEnv: NodeJS.ProcessEnv;
let cwEnv: NodeJS.ProcessEnv;
let dataDir: string;
let tarball: string;
/** The @cw scope's registry: it has no package, and every request to it is a failure of the scaffold. */
let scopeRegistry: Server;
const scopeRequests: string[] = [];

function npm(args: readonly string[], timeoutMs = STEP_MS): Promise<ProcessExit> {
  return runProcess('npm', args, { cwd: project, env: npmEnv, timeoutMs });
}

function cw(args: readonly string[], cwd = work): Promise<ProcessExit> {
  return runProcess(process.execPath, [CW_BIN, ...args], { cwd, env: cwEnv, timeoutMs: STEP_MS });
}

function succeeded(run: ProcessExit, what: string): void {
  expect(run.code, `${what}\n${run.stdout}\n${run.stderr}`).toBe(0);
}

/** Where the lockfile says each @cw package came from. */
async function cwPackageSources(): Promise<Record<string, string | undefined>> {
  const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { resolved?: string }>;
  };
  return Object.fromEntries(
    Object.entries(lock.packages)
      .filter(([path]) => path.includes('node_modules/@cw/'))
      .map(([path, entry]) => [path, entry.resolved]),
  );
}

beforeAll(async () => {
  work = await folders.make('cw-plugin-scaffold-');
  const userconfig = join(work, 'npmrc');
  const globalconfig = join(work, 'global-npmrc');
  scopeRegistry = createServer((request, response) => {
    scopeRequests.push(request.url ?? '');
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => scopeRegistry.listen(0, '127.0.0.1', resolve));
  const deadScope = `http://127.0.0.1:${(scopeRegistry.address() as AddressInfo).port}/`;
  await writeFile(
    userconfig,
    [`@cw:registry=${deadScope}`, 'fund=false', 'audit=false', 'update-notifier=false', ''].join('\n'),
  );
  await writeFile(globalconfig, '');
  npmEnv = childEnv({
    npm_config_userconfig: userconfig,
    npm_config_globalconfig: globalconfig,
    npm_config_registry: 'https://registry.npmjs.org/',
    npm_config_cache: join(work, 'npm-cache'),
  });
  const home = join(work, 'home');
  await mkdir(home);
  await writeFile(join(home, 'config.json'), JSON.stringify({ route: ROUTE }));
  dataDir = join(work, 'data');
  cwEnv = childEnv({
    CW_DATA_DIR: dataDir,
    CW_HOME: home,
    npm_config_userconfig: userconfig,
    npm_config_globalconfig: globalconfig,
    // cw plugins install of a tarball needs no registry: this one refuses every request.
    npm_config_registry: `http://127.0.0.1:${await closedPort()}/`,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_fetch_retries: '0',
  });
  const made = await cw(['plugins', 'new', PLUGIN]);
  succeeded(made, 'cw plugins new');
  project = join(work, PLUGIN);
}, STEP_MS);

afterAll(async () => {
  scopeRegistry?.closeAllConnections();
  await new Promise((resolve) => scopeRegistry?.close(resolve));
  await folders.cleanup();
});

describe('a plugin from cw plugins new, outside the repository, with no @cw package on any registry (slow)', () => {
  it(
    'npm install takes third-party tools from the registry and every @cw package from the project',
    async () => {
      succeeded(await npm(['install'], NPM_INSTALL_MS), 'npm install');
      const sources = await cwPackageSources();
      expect(Object.keys(sources).sort()).toEqual([
        'node_modules/@cw/core',
        'node_modules/@cw/dialect-chat-completions',
        'node_modules/@cw/plugin-kit',
      ]);
      for (const [path, resolved] of Object.entries(sources)) expect(resolved, path).toMatch(/^file:cw-packages\//);
      // Not even a lookup: the dialect's own dependency on the kit resolved to the project's tarball too.
      expect(scopeRequests).toEqual([]);
    },
    NPM_INSTALL_MS + STEP_MS,
  );

  it(
    'installs again with --offline, no lockfile and no node_modules: nothing @cw was ever fetched',
    async () => {
      await rm(join(project, 'node_modules'), { recursive: true, force: true });
      await rm(join(project, 'package-lock.json'));
      succeeded(await npm(['install', '--offline'], NPM_INSTALL_MS), 'npm install --offline');
      for (const [path, resolved] of Object.entries(await cwPackageSources()))
        expect(resolved, path).toMatch(/^file:cw-packages\//);
    },
    NPM_INSTALL_MS,
  );

  it(
    'npm test builds the plugin and passes its own tests',
    async () => {
      const tested = await npm(['test'], 2 * STEP_MS);
      succeeded(tested, 'npm test');
      expect(tested.stdout).toMatch(/Tests\s+8 passed/);
      expect(tested.stdout).not.toMatch(/\bfailed\b/);
    },
    2 * STEP_MS,
  );

  it(
    'npm pack makes a tarball that cw plugins install file: takes with no registry',
    async () => {
      const packed = await npm(['pack', '--json', '--offline']);
      succeeded(packed, 'npm pack');
      const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
      expect(files.map((file) => file.path).sort()).toEqual(['README.md', 'dist/plugin.js', 'package.json']);
      tarball = join(project, filename);
      const installed = await cw(['plugins', 'install', `file:${tarball}`]);
      succeeded(installed, 'cw plugins install');
      expect(installed.stdout).toContain(`${PLUGIN} 0.1.0 (plugin API 3) registered:`);
      expect(installed.stdout).toContain(`route ${ROUTE}: dialect chat-completions, model example-model`);
      expect(installed.stderr).not.toMatch(/warning|error/i);
    },
    2 * STEP_MS,
  );

  it(
    'plugins:inspect shows the route and refiner it was made with, and no problem',
    async () => {
      const run = await cw(['plugins:inspect', PLUGIN, '--json']);
      succeeded(run, 'plugins:inspect');
      const [facts] = JSON.parse(run.stdout) as [
        {
          name: string;
          type: string;
          cw: {
            api_version: number;
            routes: { route_id: string }[];
            body_refiners: unknown[];
            problems: unknown[];
          };
        },
      ];
      expect(facts).toMatchObject({ name: PLUGIN, type: 'user' });
      expect(facts.cw.api_version).toBe(3);
      expect(facts.cw.problems).toEqual([]);
      expect(facts.cw.routes.map((route) => route.route_id)).toEqual([ROUTE]);
      expect(facts.cw.body_refiners).toEqual([{ route_ids: [ROUTE], route_shapes: [], stage: 100 }]);
    },
    STEP_MS,
  );

  it(
    'previews a request on its route, exactly, registered by the plugin',
    async () => {
      const run = await cw(['preview-request', 'json', '--prompt', 'hi']);
      succeeded(run, 'cw preview-request');
      expectValidManifest(run.stdout);
      const manifest = JSON.parse(run.stdout) as {
        route: { exact?: { route_id: string; registered_by: string; wire_model: string } };
        body: { exact?: { body_wire_sha256: string } };
      };
      expect(manifest.route.exact).toMatchObject({
        route_id: ROUTE,
        registered_by: PLUGIN,
        wire_model: 'example-model',
      });
      expect(manifest.body.exact?.body_wire_sha256).toMatch(/^[0-9a-f]{64}$/);
    },
    STEP_MS,
  );
});

describe('cw plugins new refuses bad input with one line, exit 2, and writes nothing', () => {
  it.each([
    ['a folder that is not empty', [PLUGIN], 'is not empty'],
    ['an invalid package name', ['Acme Plugin'], 'not a valid npm package name'],
    ['an invalid route id', ['cw-provider-other', '--route-id', 'Other Route'], '--route-id must be kebab-case'],
  ])('%s', async (_what, args, message) => {
    const projectFiles = (await readdir(project)).sort();
    const before = (await readdir(work)).sort();
    const run = await cw(['plugins', 'new', ...args]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(message)]);
    expect((await readdir(work)).sort()).toEqual(before);
    expect((await readdir(project)).sort()).toEqual(projectFiles);
  });
});
