import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';

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
 * Finds packages' entry files as `require.resolve(name, { paths: [from] })` would, when that takes
 * Node no more than a package's `main`. One finder is one look at the disk: each folder is listed
 * once, so the built-ins, side by side in one scope folder, cost a listing between them.
 */
export class PackageEntryFinder {
  // Lower-cased names in a folder; null when it is not there or not a folder.
  private readonly listings = new Map<string, ReadonlySet<string> | null>();

  /**
   * The entry file of `name`, or undefined when Node must be asked. `selfName` is the name of the
   * package the asking module is in, which Node resolves to that package itself. Throws nothing.
   */
  entryFile(name: string, from: string, selfName: string): string | undefined {
    if (!plainLookup(name) || name === selfName || name.startsWith(`${selfName}/`)) return undefined;
    const slash = name.indexOf('/');
    const leaf = name.slice(slash + 1).toLowerCase();
    try {
      for (const folder of nodeModulesFolders(isAbsolute(from) && plainPath(from) ? from : resolve(from))) {
        // A missing or non-folder node_modules, or scope folder, holds nothing for Node either.
        const names = this.listing(slash < 0 ? folder : `${folder}/${name.slice(0, slash)}`);
        if (names === null) continue;
        // Node tries a file named like the package first; the names are compared without case, so
        // a disk that ignores case never hides one.
        if (DEFAULT_EXTENSIONS.some((extension) => names.has(leaf + extension))) return undefined;
        if (!names.has(leaf)) continue;
        const base = `${folder}/${name}`;
        const manifest = readManifest(base);
        if (manifest === 'unreadable' || (manifest !== null && manifest['exports'] != null)) return undefined;
        const found = statSync(base, { throwIfNoEntry: false });
        if (found === undefined) continue;
        if (!found.isDirectory() || manifest === null) return undefined;
        const main = manifest['main'];
        if (typeof main !== 'string' || main === '') return undefined;
        const relative = main.startsWith('./') ? main.slice(2) : main;
        const file = plainPath(relative) && !relative.startsWith('/') ? `${base}/${relative}` : resolve(base, main);
        if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
        return realpathSync.native(file);
      }
    } catch {
      return undefined;
    }
    // Past the last folder Node looks in its global folders: only it knows them.
    return undefined;
  }

  private listing(folder: string): ReadonlySet<string> | null {
    let names = this.listings.get(folder);
    if (names === undefined) {
      try {
        names = new Set(readdirSync(folder).map((entry) => entry.toLowerCase()));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // Anything else (a folder it may not list) Node could still look into: ask it.
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
        names = null;
      }
      this.listings.set(folder, names);
    }
    return names;
  }
}

// A path with no `.` or `..` part, no doubled or trailing slash: what path.resolve would give
// unchanged (relative to its folder), which twenty lookups need not pay path.resolve for.
function plainPath(path: string): boolean {
  return path !== '' && !path.endsWith('/') && !path.includes('//') && !/(^|\/)\.\.?(\/|$)/.test(path);
}

/** Whether this process resolves a bare name the way the finder assumes. */
function plainLookup(name: string): boolean {
  if (process.platform === 'win32' || !PACKAGE_NAME.test(name) || isBuiltin(name)) return false;
  // Links kept as written change every answer; either spelling of the option turns it on.
  const options = `${process.execArgv.join(' ')} ${process.env['NODE_OPTIONS'] ?? ''}`;
  if (options.includes('--preserve-symlinks') || process.env['NODE_PRESERVE_SYMLINKS'] === '1') return false;
  return defaultExtensions();
}

let extensionsChecked: boolean | undefined;
// Asked once: making a require costs more than the rest of a lookup.
function defaultExtensions(): boolean {
  if (extensionsChecked === undefined) {
    const registered = Object.keys(createRequire(import.meta.url).extensions);
    extensionsChecked =
      registered.length === DEFAULT_EXTENSIONS.length && registered.every((ext, at) => ext === DEFAULT_EXTENSIONS[at]);
  }
  return extensionsChecked;
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
