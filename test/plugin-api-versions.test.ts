// Plugin API versions side by side (docs/plugin-authors.md, Versioning): a plugin written for version
// 2 links, previews and sends on this cw unchanged; one declaring a version cw cannot serve is refused
// by `cw plugins link` and `cw plugins install file:…` in one line, with nothing linked or installed.
// Runs the BUILT CLI (`npm run build` first).
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CW_BIN, REPO_ROOT } from './support/cw-fixture.js';
import { startCaptureEndpoint } from './support/capture-endpoint.js';
import { childEnv, runProcess } from './support/local-registry.js';
import { expectValidManifest } from './support/manifest-schema.js';
import { runCwChild, tempFolders } from './support/spawn-cw.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'plugins');
const STEP_MS = 60_000;
const folders = tempFolders();
afterAll(() => folders.cleanup());

const V1_REFUSAL =
  'plugin cw-fixture-api-v1 declares cw.apiVersion 1, but this cw speaks plugin API version 3 and serves versions 2 and 3: version 2 replaced the buildBody.for, describeBody.for, decodeReply.for and readTextDelta.for taps with api.addDialect and api.refineBody; no published cw release serves version 1; use a release of cw-fixture-api-v1 made for version 3 (docs/plugin-authors.md, Versioning)';

/** A fresh data folder and home, for one test's plugins and config. */
async function place(): Promise<{ CW_DATA_DIR: string; CW_HOME: string }> {
  return { CW_DATA_DIR: await folders.make('cw-data-'), CW_HOME: await folders.make('cw-home-') };
}

/** The plugin names the data folder lists and the packages in its node_modules; none when cw wrote neither. */
async function leftBehind(dataDir: string): Promise<string[]> {
  let listed: string[] = [];
  try {
    const pjson = JSON.parse(await readFile(join(dataDir, 'package.json'), 'utf8')) as {
      oclif: { plugins: { name: string }[] };
      dependencies?: Record<string, string>;
    };
    listed = [...pjson.oclif.plugins.map((plugin) => plugin.name), ...Object.keys(pjson.dependencies ?? {})];
  } catch {}
  const modules = await readdir(join(dataDir, 'node_modules')).catch(() => [] as string[]);
  return [...listed, ...modules.filter((name) => !name.startsWith('.'))];
}

describe('a plugin written for plugin API version 2', () => {
  it('links, says the version it was served, and inspect shows it', async () => {
    const env = await place();
    const linked = await runCwChild(['plugins', 'link', join(FIXTURES, 'api-v2'), '--no-install'], env);
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout).toBe(
      [
        'cw-fixture-api-v2 2.0.0 (plugin API 2) registered:',
        '  route v2-route: dialect chat-completions, model v2-model',
        '  body refiner at stage 100 for route v2-route, route v2-alias',
        '  hook taps: resolveRoute ×1, buildBody ×1',
        '',
      ].join('\n'),
    );
    const json = await runCwChild(['plugins', 'inspect', 'cw-fixture-api-v2', '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    const [inspected] = JSON.parse(json.stdout) as [{ cw: { api_version: number; api_version_served: boolean } }];
    expect(inspected.cw).toMatchObject({ api_version: 2, api_version_served: true });
    const tree = await runCwChild(['plugins', 'inspect', 'cw-fixture-api-v2'], env);
    expect(tree.stdout).toContain('├─ cw plugin API 2 (served)\n');
  });

  it('previews exactly on its route and on the route its resolveRoute tap answers, and sends what preview hashed', async () => {
    const endpoint = await startCaptureEndpoint();
    try {
      endpoint.answerAs('chat-completions');
      const env = { ...(await place()), CW_FIXTURE_V2_BASE_URL: `${endpoint.origin}/v1` };
      const linked = await runCwChild(['plugins', 'link', join(FIXTURES, 'api-v2'), '--no-install'], env);
      expect(linked.code, linked.stderr).toBe(0);
      type Manifest = {
        route: { exact?: { route_id: string; registered_by: string; wire_model: string } };
        body: { exact?: { body_wire_sha256: string } };
      };
      const preview = async (route: string): Promise<Manifest> => {
        const run = await runCwChild(['preview-request', 'json', '--route', route, '--prompt', 'hello'], env);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stderr).toBe('');
        expectValidManifest(run.stdout);
        return JSON.parse(run.stdout) as Manifest;
      };
      const own = await preview('v2-route');
      expect(own.route.exact).toMatchObject({
        route_id: 'v2-route',
        registered_by: 'cw-fixture-api-v2',
        wire_model: 'v2-model',
      });
      expect(own.body.exact?.body_wire_sha256).toMatch(/^[0-9a-f]{64}$/);
      const alias = await preview('v2-alias');
      expect(alias.route.exact).toMatchObject({ route_id: 'v2-alias', wire_model: 'v2-alias-model' });

      const sent = await runCwChild(['send', '--route', 'v2-route', '--approval', 'never', '--prompt', 'hello'], env);
      expect(sent.code, sent.stderr).toBe(0);
      const [request] = endpoint.captured;
      expect(request).toBeDefined();
      // The version 2 refiner ran on the wire, and the bytes sent are the bytes preview hashed.
      expect(JSON.parse(request?.bytes.toString('utf8') ?? '{}')).toMatchObject({
        model: 'v2-model',
        fixture_api: 'v2',
      });
      expect(
        createHash('sha256')
          .update(request?.bytes ?? '')
          .digest('hex'),
      ).toBe(own.body.exact?.body_wire_sha256);
    } finally {
      await endpoint.close();
    }
  });
});

describe('a plugin declaring a version this cw cannot serve', () => {
  it('cw plugins link refuses version 1 in one line saying what changed and who serves it; nothing is linked', async () => {
    const env = await place();
    const run = await runCwChild(['plugins', 'link', join(FIXTURES, 'api-v1'), '--no-install'], env);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([`cw: ${V1_REFUSAL}`]);
    expect(run.stdout).toBe('');
    expect(await leftBehind(env.CW_DATA_DIR)).toEqual([]);
  });

  it('cw plugins link refuses a future version, saying a later cw serves it', async () => {
    const env = await place();
    const run = await runCwChild(['plugins', 'link', join(FIXTURES, 'wrong-api'), '--no-install'], env);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'cw: plugin cw-fixture-wrong-api declares cw.apiVersion 99, but this cw speaks plugin API version 3 and serves versions 2 and 3: version 99 is newer than this cw; a later cw release serves it, so upgrade cw or use a release of cw-fixture-wrong-api made for version 3 (docs/plugin-authors.md, Versioning)',
    ]);
    expect(await leftBehind(env.CW_DATA_DIR)).toEqual([]);
  });

  it(
    'cw plugins install file:<tarball> refuses version 1 in the same line and leaves nothing installed',
    async () => {
      const work = await folders.make('cw-api-v1-install-');
      await writeFile(join(work, 'npmrc'), '');
      await writeFile(join(work, 'global-npmrc'), '');
      const dataDir = join(work, 'data');
      const home = join(work, 'home');
      await mkdir(home);
      // No npm configuration of the machine's own and no reachable registry: the tarball is all npm needs.
      const env = childEnv({
        CW_DATA_DIR: dataDir,
        CW_HOME: home,
        npm_config_userconfig: join(work, 'npmrc'),
        npm_config_globalconfig: join(work, 'global-npmrc'),
        npm_config_registry: 'http://127.0.0.1:9/',
        npm_config_cache: join(work, 'npm-cache'),
        npm_config_fetch_retries: '0',
      });
      const packed = await runProcess('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--json'], {
        cwd: join(FIXTURES, 'api-v1'),
        env,
        timeoutMs: STEP_MS,
      });
      expect(packed.code, packed.stderr).toBe(0);
      const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
      const run = await runProcess(process.execPath, [CW_BIN, 'plugins', 'install', `file:${join(work, filename)}`], {
        cwd: REPO_ROOT,
        env,
        timeoutMs: STEP_MS,
      });
      expect(run.code).toBe(1);
      expect(run.stderr.split('\n').filter((line) => line.startsWith('cw: '))).toEqual([`cw: ${V1_REFUSAL}`]);
      expect(await leftBehind(dataDir)).toEqual([]);
    },
    2 * STEP_MS,
  );
});
