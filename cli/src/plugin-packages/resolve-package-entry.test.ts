// The plain-layout shortcut must give require.resolve's answer in every layout, the ones it reads
// itself and the ones it hands back to require.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolvePackageEntry } from './resolve-package-entry.js';

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'cw-resolve-entry-')));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let made = 0;
/** A folder `app` with the given files (relative path to content) and symlinks (path to target). */
function layout(files: Record<string, string>, links: Record<string, string> = {}): string {
  made += 1;
  const root = join(scratch, `case-${made}`);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  for (const [path, target] of Object.entries(links)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    symlinkSync(target, join(root, path));
  }
  mkdirSync(join(root, 'app'), { recursive: true });
  return join(root, 'app');
}

/** What require itself answers, or undefined where it throws. */
function requireAnswer(name: string, from: string): string | undefined {
  try {
    return createRequire(join(scratch, 'anchor.js')).resolve(name, { paths: [from] });
  } catch {
    return undefined;
  }
}

const pjson = (fields: Record<string, unknown>): string =>
  JSON.stringify({ name: '@cw/p', version: '1.0.0', ...fields });

const LAYOUTS: Record<string, () => string> = {
  'a plain package beside the app': () =>
    layout({
      'app/node_modules/@cw/p/package.json': pjson({ main: 'dist/index.js' }),
      'app/node_modules/@cw/p/dist/index.js': '',
    }),
  'a plain package two folders up': () =>
    layout({
      'node_modules/@cw/p/package.json': pjson({ main: './lib/main.js' }),
      'node_modules/@cw/p/lib/main.js': '',
    }),
  'the nearer of two copies': () =>
    layout({
      'node_modules/@cw/p/package.json': pjson({ main: 'far.js' }),
      'node_modules/@cw/p/far.js': '',
      'app/node_modules/@cw/p/package.json': pjson({ main: 'near.js' }),
      'app/node_modules/@cw/p/near.js': '',
    }),
  'a linked package (the workspace layout)': () =>
    layout(
      { 'plugins/p/package.json': pjson({ main: 'dist/index.js' }), 'plugins/p/dist/index.js': '' },
      { 'app/node_modules/@cw/p': '../../../plugins/p' },
    ),
  'a package with exports': () =>
    layout({
      'app/node_modules/@cw/p/package.json': pjson({ main: 'main.js', exports: { '.': './exported.js' } }),
      'app/node_modules/@cw/p/main.js': '',
      'app/node_modules/@cw/p/exported.js': '',
    }),
  'a main without its extension': () =>
    layout({
      'app/node_modules/@cw/p/package.json': pjson({ main: 'dist/index' }),
      'app/node_modules/@cw/p/dist/index.js': '',
    }),
  'a main naming a folder': () =>
    layout({
      'app/node_modules/@cw/p/package.json': pjson({ main: 'dist' }),
      'app/node_modules/@cw/p/dist/index.js': '',
    }),
  'no main': () => layout({ 'app/node_modules/@cw/p/package.json': pjson({}), 'app/node_modules/@cw/p/index.js': '' }),
  'a main that is missing': () =>
    layout({
      'app/node_modules/@cw/p/package.json': pjson({ main: 'gone.js' }),
      'app/node_modules/@cw/p/index.js': '',
    }),
  'a file named like the package beside its folder': () =>
    layout({
      'app/node_modules/@cw/p.js': '',
      'app/node_modules/@cw/p/package.json': pjson({ main: 'main.js' }),
      'app/node_modules/@cw/p/main.js': '',
    }),
  'a package.json that is not JSON': () =>
    layout({ 'app/node_modules/@cw/p/package.json': '{', 'app/node_modules/@cw/p/main.js': '' }),
  'no package at all': () => layout({ 'app/node_modules/@cw/other/package.json': pjson({ main: 'x.js' }) }),
  'a node_modules that is a file': () =>
    layout({
      'app/node_modules': '',
      'node_modules/@cw/p/package.json': pjson({ main: 'm.js' }),
      'node_modules/@cw/p/m.js': '',
    }),
};

describe('resolvePackageEntry', () => {
  for (const [name, make] of Object.entries(LAYOUTS)) {
    it(`gives require's answer for ${name}`, () => {
      const from = make();
      expect(resolvePackageEntry('@cw/p', from)).toBe(requireAnswer('@cw/p', from));
    });
  }

  it('reads a plain package itself and a linked one to its real folder', () => {
    const from = LAYOUTS['a linked package (the workspace layout)']!();
    expect(resolvePackageEntry('@cw/p', from)).toBe(join(dirname(from), 'plugins', 'p', 'dist', 'index.js'));
  });
});
