// @cw/core and @cw/plugin-kit load as bundles built from their tsc output (scripts/bundle-packages.mjs).
// A bundle that lags behind that output, or drops an export, would ship without a type error: the
// types come from tsc's .d.ts files, not from the bundle. Needs `npm run build` first.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cw-fixture.js';

// Each entry a package exports: its import name, its folder, and the file under dist/ it is built from.
const LIBRARIES = [
  { name: '@cw/core', folder: 'core', entry: 'index' },
  { name: '@cw/core/plugin', folder: 'core', entry: 'plugin' },
  { name: '@cw/plugin-kit', folder: 'plugins/plugin-kit', entry: 'index' },
];

/** Each export's name and kind (function, object, string...), sorted by name. */
async function exportsOf(file: string): Promise<[string, string][]> {
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  return Object.keys(module)
    .sort()
    .map((name) => [name, typeof module[name]]);
}

describe.each(LIBRARIES)('the $name bundle', ({ name, folder, entry }) => {
  const dist = join(REPO_ROOT, folder, 'dist');
  const bundle = join(dist, 'bundle', `${entry}.js`);

  it('exports exactly what the compiled entry exports', async () => {
    const [bundled, compiled] = await Promise.all([exportsOf(bundle), exportsOf(join(dist, `${entry}.js`))]);
    expect(compiled.length).toBeGreaterThan(0);
    expect(bundled).toEqual(compiled);
  });

  it('is the file the CLI and the plugins resolve the package to', () => {
    // One copy of the package per process: were some importers to get dist/index.js and others the
    // bundle, each would have its own classes, and instanceof checks between them would fail.
    for (const from of ['cli', 'plugins/tools-workspace']) {
      const resolved = createRequire(join(REPO_ROOT, from, 'package.json')).resolve(name);
      expect(resolved, from).toBe(bundle);
    }
  });
});

describe('the @cw/core/plugin bundle', () => {
  it('is one file that loads no other file of the core', async () => {
    // Built on its own: it shares no chunk with the main entry, so the CLI's start-up never loads a
    // file for it, and it holds no state a host would need to share (see core/src/plugin.ts).
    const text = await readFile(join(REPO_ROOT, 'core', 'dist', 'bundle', 'plugin.js'), 'utf8');
    const specifiers = [...text.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/g)].map(
      (match) => match[1] ?? match[2],
    );
    expect(specifiers.filter((specifier) => !specifier?.startsWith('node:'))).toEqual([]);
  });
});
