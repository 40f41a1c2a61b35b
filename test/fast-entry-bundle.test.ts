// The preview and send entries run from one bundle that holds the built-in plugins
// (scripts/bundle-cli.mjs, cli/src/entry/load-fast-entry.ts): a preview imports no plugin file, yet every
// built-in is loaded, and a linked third-party plugin is still imported from its own files.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cw-fixture.js';
import { runCwChild, tempFolders } from './support/spawn-cw.js';

const HOOK = join(REPO_ROOT, 'test', 'fixtures', 'report-plugin-imports.mjs');
const IMPORTED = 'plugin-imported: ';
const folders = tempFolders();
afterAll(folders.cleanup);

describe('the bundled preview and send entries', () => {
  it('load the built-in plugins from the bundle and a linked plugin from its files', async () => {
    const env = { CW_HOME: await folders.make('cw-bundle-home-'), CW_DATA_DIR: await folders.make('cw-bundle-data-') };
    const hooked = { ...env, NODE_OPTIONS: `--import=${HOOK}` };
    // Routes of built-in provider plugins, through the dialects they name: each registered from the bundle.
    for (const route of ['deepseek', 'moonshot', 'zai', 'deepseek-anthropic']) {
      const args = ['preview-request', 'json', '-r', route, '--prompt', 'hi'];
      const fast = await runCwChild(args, hooked);
      expect(fast.code, fast.stderr).toBe(0);
      expect(fast.stderr.split('\n').filter((line) => line.startsWith(IMPORTED))).toEqual([]);
      expect(JSON.parse(fast.stdout)).toMatchObject({ route: { exact: { route_id: route } } });
      const oclif = await runCwChild(args, { ...env, CW_NO_FAST_PATH: '1' });
      expect(fast.stdout).toBe(oclif.stdout);
    }

    const linked = await runCwChild(
      ['plugins', 'link', join(REPO_ROOT, 'test', 'fixtures', 'plugins', 'good-esm'), '--no-install'],
      env,
    );
    expect(linked.code).toBe(0);
    const withLink = await runCwChild(['preview-request', 'json', '--prompt', 'hi'], hooked);
    expect(withLink.code, withLink.stderr).toBe(0);
    const imported = withLink.stderr.split('\n').filter((line) => line.startsWith(IMPORTED));
    expect(imported).toEqual([
      `${IMPORTED}file://${join(REPO_ROOT, 'test', 'fixtures', 'plugins', 'good-esm', 'index.js')}`,
    ]);
  });
});

// A child compiles the bundle the way the launcher does and reports, at exit, every bundle compiled
// and what became of its code cache.
const REPORT_BUNDLES = `
const { compileBundle } = await import(${JSON.stringify(join(REPO_ROOT, 'cli', 'dist', 'entry', 'compile-bundle.js'))});
const seen = [];
process.on('exit', () => process.stderr.write('bundles: ' + JSON.stringify(seen) + '\\n'));
const dist = ${JSON.stringify(join(REPO_ROOT, 'cli', 'dist'))};
const cache = process.env.PREVIEW_CACHE ? '/fast-entry.cjs.preview.v8cache' : '/fast-entry.cjs.v8cache';
const { exports } = compileBundle(dist + '/fast-entry.cjs', dist + cache, {
  compiled: (compiled, file) => seen.push([file.slice(dist.length + 1), compiled.cache]),
});
await exports.fastPreview(['json', '--prompt', 'hi']);
`;

describe('zod, a bundle apart', () => {
  it('is compiled from its own cache when a config file is read, and not at all for a preview without one', async () => {
    const home = await folders.make('cw-zod-apart-');
    const env = { ...process.env, CW_HOME: home, CW_DATA_DIR: await folders.make('cw-zod-data-') };
    const run = (extra: Record<string, string>) => {
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', REPORT_BUNDLES], {
        env: { ...env, ...extra },
        encoding: 'utf8',
      });
      expect(child.status, child.stderr).toBe(0);
      return JSON.parse(/bundles: (.*)/.exec(child.stderr)?.[1] ?? 'null');
    };
    expect(run({ PREVIEW_CACHE: '1' })).toEqual([['fast-entry.cjs', 'used']]);
    await writeFile(join(home, 'config.json'), '{ "route": "deepseek", "reasoning": "high" }');
    // zod is compiled when the config is checked, after the bundle has run its own start.
    expect(run({})).toEqual([
      ['fast-entry.cjs', 'used'],
      ['zod.cjs', 'used'],
    ]);
  });
});
