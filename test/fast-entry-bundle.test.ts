// The preview and send entries run from one bundle that holds the built-in plugins
// (scripts/bundle-cli.mjs, cli/src/entry/load-fast-entry.ts): a preview imports no plugin file, yet every
// built-in is loaded, and a linked third-party plugin is still imported from its own files.
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
