import { readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';

// Finding a plugin's folder resolves its name as require would (plugin-descriptors-from-files.ts).
// Node's resolver runs a few hundred lines of cold JavaScript per name, about a quarter of a
// millisecond each, and a preview resolves every built-in plugin. Most packages are laid out
// plainly: the package folder in the first node_modules up the tree, no `exports`, a `main` naming
// a file as it is. For those the answer is read here with a few file system calls; for anything else
// (exports, a main without its extension, no main, a file beside the folder, preserved symlinks)
// this hands the question to require.resolve, so the answer is always require's.

const require = createRequire(import.meta.url);

// The extensions require tries, in order, for a path that names no file as it is.
const EXTENSIONS = ['.js', '.json', '.node'];

/** Whether Node was told to keep symlinks in module paths, which changes what require returns. */
function symlinksPreserved(): boolean {
  const options = `${process.execArgv.join(' ')} ${process.env['NODE_OPTIONS'] ?? ''}`;
  return options.includes('--preserve-symlinks') || process.env['NODE_PRESERVE_SYMLINKS'] === '1';
}

/** The node_modules folders require looks in for a package, from `from` up, as Node lists them. */
function nodeModulesFolders(from: string): string[] {
  const folders: string[] = [];
  for (let folder = resolve(from); ; folder = dirname(folder)) {
    if (!folder.endsWith(`${sep}node_modules`)) folders.push(join(folder, 'node_modules'));
    if (dirname(folder) === folder) return folders;
  }
}

/** What kind of thing is at `path`: a file, a folder, or nothing (or something unreadable). */
function kindOf(path: string): 'file' | 'folder' | 'none' {
  const info = statSync(path, { throwIfNoEntry: false });
  if (info === undefined) return 'none';
  return info.isFile() ? 'file' : info.isDirectory() ? 'folder' : 'none';
}

/**
 * The plainly laid-out answer, or 'ask' when only require can tell: the real path of the package's
 * main file, or null when no node_modules folder up from `from` has the package at all.
 */
function plainEntry(name: string, from: string): string | null | 'ask' {
  for (const folder of nodeModulesFolders(from)) {
    if (kindOf(folder) !== 'folder') continue;
    const base = join(folder, name);
    const kind = kindOf(base);
    // A file named like the package, with or without an extension, comes before a folder.
    if (kind === 'file' || EXTENSIONS.some((extension) => kindOf(base + extension) !== 'none')) return 'ask';
    if (kind === 'none') continue;
    let pjson: unknown;
    try {
      pjson = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8'));
    } catch {
      return 'ask';
    }
    if (typeof pjson !== 'object' || pjson === null || Array.isArray(pjson)) return 'ask';
    const { exports, main } = pjson as { exports?: unknown; main?: unknown };
    if (exports !== undefined && exports !== null) return 'ask';
    if (typeof main !== 'string' || main === '') return 'ask';
    const entry = resolve(base, main);
    if (kindOf(entry) !== 'file') return 'ask';
    return realpathSync.native(entry);
  }
  return null;
}

/**
 * The file `require.resolve(name, { paths: [from] })` gives for a package name, or undefined where
 * it throws.
 */
export function resolvePackageEntry(name: string, from: string): string | undefined {
  const plain = symlinksPreserved() ? 'ask' : plainEntry(name, from);
  if (plain !== 'ask' && plain !== null) return plain;
  try {
    return require.resolve(name, { paths: [from] });
  } catch {
    return undefined;
  }
}
