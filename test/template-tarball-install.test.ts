// A stranger's install of the plugin template: `npm pack` of plugin-template/, then
// `cw plugins install file:<tarball>` into a fresh data folder and home, with npm's registry pointed
// at a loopback port nothing listens on and no npm configuration of the machine's own. The plugin
// bundles the @cw/plugin-kit code it uses (docs/plugin-authors.md, "What a plugin ships"), so npm
// has nothing to fetch. Run `npm run build` first: it builds the template's dist/plugin.js.
import { writeFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CW_BIN, REPO_ROOT } from './support/cw-fixture.js';
import { childEnv, closedPort, runProcess, type ProcessExit } from './support/local-registry.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { tempFolders } from './support/spawn-cw.js';

const STEP_MS = 60_000;
const ROUTE = 'example-chat';

const folders = tempFolders();
let env: NodeJS.ProcessEnv;
let tarball: string;
let dataDir: string;

function cw(args: readonly string[]): Promise<ProcessExit> {
  return runProcess(process.execPath, [CW_BIN, ...args], { cwd: REPO_ROOT, env, timeoutMs: STEP_MS });
}

function succeeded(run: ProcessExit, what: string): void {
  expect(run.code, `${what}\n${run.stdout}\n${run.stderr}`).toBe(0);
}

beforeAll(async () => {
  const work = await folders.make('cw-template-offline-');
  const npmrc = join(work, 'npmrc');
  const globalNpmrc = join(work, 'global-npmrc');
  await writeFile(npmrc, '');
  await writeFile(globalNpmrc, '');
  const home = join(work, 'home');
  await mkdir(home);
  await writeFile(join(home, 'config.json'), JSON.stringify({ route: ROUTE }));
  dataDir = join(work, 'data');
  const registry = `http://127.0.0.1:${await closedPort()}/`;
  env = childEnv({
    CW_DATA_DIR: dataDir,
    CW_HOME: home,
    // No user or global npm configuration (a scope registry there could serve @cw), a fresh cache
    // (nothing fetched before can stand in for the registry), and one try per request.
    npm_config_userconfig: npmrc,
    npm_config_globalconfig: globalNpmrc,
    npm_config_registry: registry,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_fetch_retries: '0',
  });
  const packs = join(work, 'packs');
  await mkdir(packs);
  // The build already ran (the repository's build bundles the template); prepack would only repeat it.
  const packed = await runProcess('npm', ['pack', '--ignore-scripts', '--pack-destination', packs, '--json'], {
    cwd: join(REPO_ROOT, 'plugin-template'),
    env,
    timeoutMs: STEP_MS,
  });
  succeeded(packed, 'npm pack');
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  tarball = join(packs, filename);
}, STEP_MS);

afterAll(async () => {
  await folders.cleanup();
});

describe('the template tarball installs with no registry reachable', () => {
  it('the tarball declares no run-time dependency: npm has nothing to fetch', async () => {
    const listed = await runProcess('tar', ['-xzOf', tarball, 'package/package.json'], {
      cwd: REPO_ROOT,
      env,
      timeoutMs: STEP_MS,
    });
    succeeded(listed, 'tar');
    const pjson = JSON.parse(listed.stdout) as { dependencies?: Record<string, string>; cw: { register: string } };
    expect(pjson.dependencies ?? {}).toEqual({});
    expect(pjson.cw.register).toBe('./dist/plugin.js');
  });

  it(
    'cw plugins install file:<tarball> installs it, prints what it registered, and puts no @cw package in the data folder',
    async () => {
      const installed = await cw(['plugins', 'install', `file:${tarball}`]);
      succeeded(installed, 'cw plugins install');
      expect(installed.stdout).toContain('cw-provider-example 0.1.0 (plugin API 3) registered:');
      expect(installed.stdout).toContain(`route ${ROUTE}: dialect chat-completions, model example-model`);
      expect(installed.stdout).toContain(`body refiner at stage 100 for route ${ROUTE}`);
      expect(installed.stderr).not.toMatch(/warning|error/i);
      const packages = (await readdir(join(dataDir, 'node_modules'))).filter((name) => !name.startsWith('.'));
      expect(packages).toEqual(['cw-provider-example']);
    },
    2 * STEP_MS,
  );

  it(
    'previews a request on its route, registered by the plugin',
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
        registered_by: 'cw-provider-example',
        wire_model: 'example-model',
      });
      expect(manifest.body.exact?.body_wire_sha256).toMatch(/^[0-9a-f]{64}$/);
      // The refiner, bundled with the kit helper it uses, ran: it is in the plugin's own file.
      const bundled = await readFile(join(dataDir, 'node_modules', 'cw-provider-example', 'dist', 'plugin.js'), 'utf8');
      expect(bundled).not.toMatch(/from ['"]@cw\/plugin-kit['"]/);
    },
    STEP_MS,
  );
});
