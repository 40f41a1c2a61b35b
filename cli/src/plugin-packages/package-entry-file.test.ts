import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeModulesFolders, PackageEntryFinder } from './package-entry-file.js';

const packageEntryFile = (name: string, from: string, selfName: string) =>
  new PackageEntryFinder().entryFile(name, from, selfName);

const require = createRequire(import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), 'cw-entry-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What one lookup folder holds for the package. */
const SHAPES = [
  'none',
  'empty',
  'main',
  'main-bare',
  'main-dotted',
  'main-missing',
  'no-main',
  'exports',
  'bad-json',
  'file-beside',
  'link',
  'folder-is-file',
  'no-manifest',
] as const;
type Shape = (typeof SHAPES)[number];

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** A package folder at `folder` of the given shape (the node_modules folder around it is made by the caller). */
function makePackage(folder: string, name: string, shape: Shape, elsewhere: string): void {
  const manifest = (fields: object) => write(join(folder, 'package.json'), JSON.stringify({ name, ...fields }));
  switch (shape) {
    case 'none':
    case 'empty':
    case 'folder-is-file':
      return;
    case 'main':
      manifest({ main: './dist/index.js' });
      write(join(folder, 'dist', 'index.js'), '');
      return;
    case 'main-bare':
      manifest({ main: 'dist/index.js' });
      write(join(folder, 'dist', 'index.js'), '');
      return;
    case 'main-dotted':
      manifest({ main: './lib/../dist//index.js' });
      write(join(folder, 'dist', 'index.js'), '');
      mkdirSync(join(folder, 'lib'));
      return;
    case 'main-missing':
      manifest({ main: './dist/gone.js' });
      write(join(folder, 'index.js'), '');
      return;
    case 'no-main':
      manifest({});
      write(join(folder, 'index.js'), '');
      return;
    case 'exports':
      manifest({ main: './dist/index.js', exports: { '.': './dist/exported.js' } });
      write(join(folder, 'dist', 'index.js'), '');
      write(join(folder, 'dist', 'exported.js'), '');
      return;
    case 'bad-json':
      write(join(folder, 'package.json'), '{ not json');
      write(join(folder, 'index.js'), '');
      return;
    case 'file-beside':
      manifest({ main: './dist/index.js' });
      write(join(folder, 'dist', 'index.js'), '');
      write(`${folder}.js`, '');
      return;
    case 'link':
      makePackage(elsewhere, name, 'main', elsewhere);
      mkdirSync(dirname(folder), { recursive: true });
      symlinkSync(elsewhere, folder);
      return;
    case 'no-manifest':
      write(join(folder, 'index.js'), '');
      return;
  }
}

/** A fresh tree with the four lookup folders above `from` shaped as asked; returns `from`. */
function layout(name: string, shapes: readonly Shape[], nested: boolean): string {
  const top = mkdtempSync(join(scratch, 'case-'));
  const folders = [join(top, 'a'), join(top, 'a', nested ? 'node_modules' : 'b'), '', ''];
  const from = join(folders[1] as string, 'cli');
  mkdirSync(from, { recursive: true });
  const levels = [from, folders[1] as string, folders[0] as string, top];
  shapes.forEach((shape, level) => {
    const at = levels[level] as string;
    // Node never looks in a node_modules folder's own node_modules.
    if (at.endsWith('node_modules')) return;
    if (shape === 'none') return;
    // Nested, the second folder up is itself the node_modules folder the first sits in.
    if (shape === 'folder-is-file' && !(nested && level === 2)) {
      write(join(at, 'node_modules'), '');
      return;
    }
    mkdirSync(join(at, 'node_modules'), { recursive: true });
    makePackage(join(at, 'node_modules', name), name, shape, join(top, `elsewhere-${level}`));
  });
  return from;
}

function nodeSays(name: string, from: string): string | 'throws' {
  try {
    return require.resolve(name, { paths: [from] });
  } catch {
    return 'throws';
  }
}

describe('PackageEntryFinder', () => {
  it('finds what require.resolve finds, or leaves it to Node, for any shape of the lookup folders', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('@scope/plugin', 'plugin'),
        fc.array(fc.constantFrom(...SHAPES), { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        (name, shapes, nested) => {
          const from = layout(name, shapes, nested);
          const answer = packageEntryFile(name, from, '@cw/cli');
          if (answer !== undefined) expect(answer).toBe(nodeSays(name, from));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers the plain case itself: the first folder holding the package, its main, links resolved', () => {
    const plain = layout('@scope/plugin', ['empty', 'main', 'exports', 'none'], false);
    expect(packageEntryFile('@scope/plugin', plain, '@cw/cli')).toBe(nodeSays('@scope/plugin', plain));
    const linked = layout('plugin', ['none', 'link', 'none', 'none'], false);
    const found = packageEntryFile('plugin', linked, '@cw/cli');
    expect(found).toBe(nodeSays('plugin', linked));
    expect(found).toBe(realpathSync(found as string));
    expect(found).toContain('elsewhere-1');
  });

  it('leaves to Node what it does more with: exports, a file beside, no main, its own package, a built-in', () => {
    for (const shape of ['exports', 'file-beside', 'no-main', 'main-missing', 'bad-json'] as const) {
      const from = layout('plugin', [shape, 'main', 'none', 'none'], false);
      expect(packageEntryFile('plugin', from, '@cw/cli'), shape).toBeUndefined();
    }
    const from = layout('@cw/cli', ['main', 'none', 'none', 'none'], false);
    expect(packageEntryFile('@cw/cli', from, '@cw/cli')).toBeUndefined();
    expect(packageEntryFile('fs', from, '@cw/cli')).toBeUndefined();
    expect(packageEntryFile('./plugin', from, '@cw/cli')).toBeUndefined();
    expect(packageEntryFile('plugin/sub', from, '@cw/cli')).toBeUndefined();
  });

  it('lists the lookup folders as Node does', () => {
    for (const from of ['/a/b/c', '/a/node_modules/b', '/node_modules/x', '/a'])
      expect(nodeModulesFolders(from)).toEqual(
        (require('node:module') as { _nodeModulePaths: (f: string) => string[] })._nodeModulePaths(from),
      );
  });
});
