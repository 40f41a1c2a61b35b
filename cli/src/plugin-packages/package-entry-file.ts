import { readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, resolve } from 'node:path';

// Where `require.resolve(name, { paths: [from] })` finds a package, found with a few file lookups:
// Node's resolver is exact but slow to start (it walks each lookup folder through several layers, and
// resolves links one path part at a time), and the preview resolves twenty built-in plugins before it
// can do anything (docs/performance.md, "Plugins found without Node's resolver").
//
// Only the plainest case is answered: the first node_modules folder that holds the name holds a
// folder whose package.json has no `exports` and a `main` naming a file. Whenever Node would do
// anything more (exports, a file named like the package, a missing main, index files, global
// folders, links preserved, a Windows path), this answers undefined and the caller asks Node, so the
// two never differ.

// Node's own extensions, in the order it tries them; a loader that added one changes what Node finds.
const DEFAULT_EXTENSIONS = ['.js', '.json', '.node'];
// A package name as a require of a bare name takes it: `name` or `@scope/name`, no path inside it.
const PACKAGE_NAME = /^(?:@[^/\\@.][^/\\]*\/)?[^/\\@.][^/\\]*$/;

/**
 * The file `require.resolve(name, { paths: [from] })` would give, when finding it takes Node no more
 * than a package's `main`; undefined when Node must be asked. `selfName` is the name of the package
 * the asking module is in, which Node resolves to that package itself. Throws nothing.
 */
export function packageEntryFile(name: string, from: string, selfName: string): string | undefined {
  if (!plainLookup(name) || name === selfName || name.startsWith(`${selfName}/`)) return undefined;
  try {
    for (const folder of nodeModulesFolders(resolve(from))) {
      if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) continue;
      const base = join(folder, name);
      // Node looks for `exports` first, then for a file named like the package with each extension.
      const manifest = readManifest(base);
      if (manifest === 'unreadable' || (manifest !== null && manifest['exports'] != null)) return undefined;
      for (const extension of DEFAULT_EXTENSIONS)
        if (statSync(base + extension, { throwIfNoEntry: false }) !== undefined) return undefined;
      const found = statSync(base, { throwIfNoEntry: false });
      if (found === undefined) continue;
      if (!found.isDirectory() || manifest === null) return undefined;
      const main = manifest['main'];
      if (typeof main !== 'string' || main === '') return undefined;
      const file = resolve(base, main);
      if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
      return realpathSync.native(file);
    }
  } catch {
    return undefined;
  }
  // Past the last folder Node looks in its global folders: only it knows them.
  return undefined;
}

/** Whether this process resolves a bare name the way the function above assumes. */
function plainLookup(name: string): boolean {
  if (process.platform === 'win32' || !PACKAGE_NAME.test(name) || isBuiltin(name)) return false;
  // Links kept as written change every answer; either spelling of the option turns it on.
  const options = `${process.execArgv.join(' ')} ${process.env['NODE_OPTIONS'] ?? ''}`;
  if (options.includes('--preserve-symlinks') || process.env['NODE_PRESERVE_SYMLINKS'] === '1') return false;
  const registered = Object.keys(createRequire(import.meta.url).extensions);
  return (
    registered.length === DEFAULT_EXTENSIONS.length && registered.every((ext, at) => ext === DEFAULT_EXTENSIONS[at])
  );
}

/** The node_modules folders Node looks in from `from`, nearest first (its `_nodeModulePaths`, POSIX). */
export function nodeModulesFolders(from: string): string[] {
  const folders: string[] = [];
  for (let folder = from; ; folder = dirname(folder)) {
    if (folder === '/') break;
    // Node never looks in node_modules/node_modules.
    if (!folder.endsWith('/node_modules')) folders.push(`${folder}/node_modules`);
  }
  folders.push('/node_modules');
  return folders;
}

/** A package folder's package.json: null when there is none, 'unreadable' when Node would throw on it. */
function readManifest(folder: string): Record<string, unknown> | null | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(join(folder, 'package.json'), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : 'unreadable';
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : 'unreadable';
  } catch {
    return 'unreadable';
  }
}
