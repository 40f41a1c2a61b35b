// `cw plugins link` checks a plugin folder before linking it: a plugin that is not built, or that
// was made for another plugin API version, is a one-line error and nothing is linked. A plugin that
// passes is linked and cw prints what it registered. Runs the BUILT CLI (`npm run build` first).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cw-fixture.js';
import { runCwChild, tempFolders } from './support/spawn-cw.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'plugins');
const folders = tempFolders();
afterAll(() => folders.cleanup());

/** The plugin names the data folder lists, linked or installed; none when cw never wrote the file. */
async function listed(dataDir: string): Promise<string[]> {
  try {
    const pjson = JSON.parse(await readFile(join(dataDir, 'package.json'), 'utf8')) as {
      oclif: { plugins: { name: string }[] };
    };
    return pjson.oclif.plugins.map((plugin) => plugin.name);
  } catch {
    return [];
  }
}

async function link(folder: string): Promise<{ code: number | null; stdout: string; stderr: string; dataDir: string }> {
  const dataDir = await folders.make('cw-data-');
  const home = await folders.make('cw-home-');
  const run = await runCwChild(['plugins', 'link', folder, '--no-install'], { CW_DATA_DIR: dataDir, CW_HOME: home });
  return { ...run, dataDir };
}

describe('cw plugins link', () => {
  it('refuses a plugin that is not built, in one line, and links nothing', async () => {
    const run = await link(join(FIXTURES, 'unbuilt'));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'cw: plugin cw-fixture-unbuilt is not built: the module its cw.register names does not exist; build it (npm run build) and try again\n',
    );
    expect(run.stdout).toBe('');
    expect(await listed(run.dataDir)).toEqual([]);
  });

  it('refuses a plugin made for another plugin API version, naming both versions', async () => {
    const run = await link(join(FIXTURES, 'wrong-api'));
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'cw: plugin cw-fixture-wrong-api declares cw.apiVersion 99, but this cw speaks plugin API version 3 and serves versions 2 and 3: version 99 is newer than this cw; a later cw release serves it, so upgrade cw or use a release of cw-fixture-wrong-api made for version 3 (docs/plugin-authors.md, Versioning)',
    ]);
    expect(await listed(run.dataDir)).toEqual([]);
  });

  it('refuses a folder that is not a package', async () => {
    const empty = await folders.make('cw-not-a-package-');
    const run = await link(empty);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('has no readable package.json');
    expect(run.stderr).not.toContain(empty);
    expect(await listed(run.dataDir)).toEqual([]);
  });

  it('links a built plugin and prints what it registered; a rejected row is a warning', async () => {
    const run = await link(join(FIXTURES, 'good-esm'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      [
        'cw-fixture-good-esm 1.0.0 (plugin API 3) registered:',
        '  route fixture-route: dialect chat-completions, model fixture-model',
        '  hook taps: none',
        '',
      ].join('\n'),
    );
    expect(run.stderr).toContain('cw: warning: plugin cw-fixture-good-esm had a route row rejected (invalid-row)');
    expect(await listed(run.dataDir)).toEqual(['cw-fixture-good-esm']);
  });
});
