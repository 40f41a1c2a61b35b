// @cw/core and @cw/plugin-kit load as bundles built from their tsc output (scripts/bundle-packages.mjs).
// A bundle that lags behind that output, or drops an export, would ship without a type error: the
// types come from tsc's .d.ts files, not from the bundle. Needs `npm run build` first.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cw-fixture.js';

const LIBRARIES = [
  { name: '@cw/core', folder: 'core' },
  { name: '@cw/plugin-kit', folder: 'plugins/plugin-kit' },
];

/** Each export's name and kind (function, object, string...), sorted by name. */
async function exportsOf(file: string): Promise<[string, string][]> {
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  return Object.keys(module)
    .sort()
    .map((name) => [name, typeof module[name]]);
}

describe.each(LIBRARIES)('the $name bundle', ({ name, folder }) => {
  const dist = join(REPO_ROOT, folder, 'dist');
  const bundle = join(dist, 'bundle', 'index.js');

  it('exports exactly what the compiled index exports', async () => {
    const [bundled, compiled] = await Promise.all([exportsOf(bundle), exportsOf(join(dist, 'index.js'))]);
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
