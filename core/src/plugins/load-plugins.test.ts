import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PluginDescriptor } from './plugin-api.js';
import { loadPlugins } from './load-plugins.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/plugins/', import.meta.url));

async function descriptor(folder: string): Promise<PluginDescriptor> {
  const root = `${FIXTURES}${folder}`;
  const pjson = JSON.parse(await readFile(`${root}/package.json`, 'utf8')) as {
    name: string;
    version: string;
    cw: unknown;
  };
  return { name: pjson.name, version: pjson.version, root, cw: pjson.cw, type: 'user' };
}

describe('loadPlugins', () => {
  it('loads good plugins and reports each bad one without stopping', async () => {
    const folders = ['broken-import', 'good-esm', 'wrong-api', 'no-register', 'throws', 'good-cjs', 'escapes-root'];
    const registry = await loadPlugins(await Promise.all(folders.map(descriptor)));
    expect(registry.plugins.map((plugin) => plugin.name)).toEqual(['cw-fixture-good-esm', 'cw-fixture-good-cjs']);
    const codes = registry.problems.map((problem) => `${problem.plugin} ${problem.code}`);
    expect(codes).toEqual([
      'cw-fixture-broken-import import-failed',
      'cw-fixture-good-esm invalid-row',
      'cw-fixture-wrong-api api-version-mismatch',
      'cw-fixture-no-register no-register-export',
      'cw-fixture-throws register-threw',
      'cw-fixture-escapes-root import-failed',
    ]);
  });

  it('keeps the valid rows of a plugin whose other row is invalid, attributed to the plugin', async () => {
    const registry = await loadPlugins([await descriptor('good-esm')]);
    expect(registry.rows.map((row) => [row.route_id, row.plugin])).toEqual([['fixture-route', 'cw-fixture-good-esm']]);
    expect(registry.plugins[0]?.routeIds).toEqual(['fixture-route']);
    // The diagnostic names the field that failed, not the value.
    expect(registry.problems[0]?.detail).toMatch(/^row field [a-z_.]+: /);
  });

  it('refuses a second row under an already registered route id', async () => {
    const good = await descriptor('good-esm');
    const registry = await loadPlugins([good, { ...good, name: 'cw-fixture-copy' }]);
    expect(registry.rows).toHaveLength(1);
    expect(registry.problems.map((problem) => problem.code)).toContain('duplicate-route');
  });

  it('reports a package without a cw field', async () => {
    const registry = await loadPlugins([
      { name: 'no-cw', version: '1.0.0', root: FIXTURES, cw: undefined, type: 'user' },
    ]);
    expect(registry.problems).toEqual([
      { plugin: 'no-cw', code: 'missing-cw-field', detail: 'package.json has no cw.register entry' },
    ]);
  });

  it('runs an entry module the host holds instead of importing the file, after the same checks', async () => {
    const good = await descriptor('good-esm');
    const asked: string[] = [];
    const held = {
      register: (api: { addDialect?: unknown }) => {
        asked.push(typeof api.addDialect);
      },
    };
    const registry = await loadPlugins(
      [good, await descriptor('escapes-root'), await descriptor('wrong-api')],
      undefined,
      (entry) => {
        asked.push(entry.name);
        return entry.name === good.name ? held : undefined;
      },
    );
    // The held module registered (nothing); the file's own row was never registered.
    expect(registry.plugins.map((plugin) => plugin.name)).toEqual(['cw-fixture-good-esm']);
    expect(registry.rows).toEqual([]);
    expect(asked).toEqual(['cw-fixture-good-esm', 'function']);
    // A package whose entry leaves its folder, or of another API version, is refused before the host is asked.
    expect(registry.problems.map((problem) => `${problem.plugin} ${problem.code}`)).toEqual([
      'cw-fixture-escapes-root import-failed',
      'cw-fixture-wrong-api api-version-mismatch',
    ]);
  });

  it('imports the file when the host holds no module for the plugin', async () => {
    const registry = await loadPlugins([await descriptor('good-esm')], undefined, () => undefined);
    expect(registry.rows.map((row) => row.route_id)).toEqual(['fixture-route']);
  });

  it('serves a version 2 plugin the contract it was written for: its route, refiner and resolveRoute tap load', async () => {
    const registry = await loadPlugins([await descriptor('api-v2')]);
    expect(registry.problems).toEqual([]);
    expect(registry.plugins).toMatchObject([{ name: 'cw-fixture-api-v2', apiVersion: 2, routeIds: ['v2-route'] }]);
    expect(registry.plugins[0]?.refiners).toEqual([{ match: { routeIds: ['v2-route', 'v2-alias'] }, stage: 100 }]);
    expect(registry.hooks.resolveRoute.taps.map((tap) => tap.name)).toContain('cw-fixture-api-v2');
  });

  it('refuses version 1 and a future version in one line each, saying what changed and who serves it', async () => {
    const registry = await loadPlugins([await descriptor('api-v1'), await descriptor('wrong-api')]);
    expect(registry.plugins).toEqual([]);
    expect(registry.problems).toEqual([
      {
        plugin: 'cw-fixture-api-v1',
        code: 'api-version-mismatch',
        detail:
          'plugin declares cw.apiVersion 1, but this cw speaks plugin API version 3 and serves versions 2 and 3: version 2 replaced the buildBody.for, describeBody.for, decodeReply.for and readTextDelta.for taps with api.addDialect and api.refineBody; no published cw release serves version 1; use a release of the plugin made for version 3 (docs/plugin-authors.md, Versioning)',
      },
      {
        plugin: 'cw-fixture-wrong-api',
        code: 'api-version-mismatch',
        detail:
          'plugin declares cw.apiVersion 99, but this cw speaks plugin API version 3 and serves versions 2 and 3: version 99 is newer than this cw; a later cw release serves it, so upgrade cw or use a release of the plugin made for version 3 (docs/plugin-authors.md, Versioning)',
      },
    ]);
  });
});
