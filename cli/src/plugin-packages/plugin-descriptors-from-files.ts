import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { PluginDescriptor } from '@cw/core';
import { type RuntimeSource, defaultRouteOf } from '../entry/load-runtime.js';
import { PackageEntryFinder } from './package-entry-file.js';

// The plugins oclif would load for cw, found from the files alone, so that `cw preview-request` can
// start without oclif (fast-preview.ts). The rules are oclif's plugin loader's:
// - built-ins are cli/package.json's `oclif.plugins` that are also its dependencies, each found by
//   resolving its name from the cli package and walking up to the folder named like the package;
// - installed (`user`) and linked (`link`) plugins are listed in the plugin data folder's
//   package.json, `oclif.plugins`; an installed one is found by the same resolve from there (or,
//   when it has no requirable entry, in that folder's node_modules), a linked one is at its `root`;
// - an installed or linked plugin of the same name as another shadows it.
// Wherever oclif would do more than read a cw plugin — run a hook, find a command, warn about a
// file, load a nested plugin, read an rc file — or a file is not what cw writes there, this gives up
// (undefined) and the caller lets oclif do it all, so the two paths never differ.

// Files oclif reads for a plugin's oclif config when its package.json has none (read-pjson).
const RC_FILES = [
  '.oclifrc',
  '.oclifrc.json',
  '.oclifrc.js',
  '.oclifrc.mjs',
  '.oclifrc.cjs',
  'oclif.config.js',
  'oclif.config.mjs',
  'oclif.config.cjs',
];
// A plugin with a command manifest has commands oclif would offer, and may warn about its version.
const MANIFEST_FILES = ['oclif.manifest.json', '.oclif.manifest.json'];
// The only hook cw's own package.json may declare: it runs for unknown commands, never for preview.
const CLI_HOOKS = new Set(['command_not_found']);

const require = createRequire(import.meta.url);

interface PackageJson {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly cw?: unknown;
  readonly dependencies?: unknown;
  readonly oclif?: unknown;
  readonly 'cli-engine'?: unknown;
}

interface ListedPlugin {
  readonly name: string;
  readonly type: 'user' | 'link';
  readonly root: string;
}

/**
 * The runtime source oclif's config would give for the cli package at `cliRoot` and the plugin data
 * folder `dataDir` (CW_DATA_DIR), in the same order load-runtime.ts puts oclif's list in: built-ins
 * as cli/package.json lists them, then installed, then linked plugins as the data folder lists them.
 * Undefined when anything is not plainly a cw plugin oclif would just read. A null `dataDir` reads
 * the built-ins alone.
 */
export function runtimeSourceFromFiles(cliRoot: string, dataDir: string | null): RuntimeSource | undefined {
  const cli = readPackageJson(cliRoot);
  if (cli === undefined || typeof cli.name !== 'string') return undefined;
  const oclif = objectOr(cli.oclif);
  if (oclif === undefined || !Array.isArray(oclif['plugins'])) return undefined;
  if (oclif['devPlugins'] !== undefined || oclif['jitPlugins'] !== undefined) return undefined;
  const hooks = objectOr(oclif['hooks'] ?? {});
  if (hooks === undefined || Object.keys(hooks).some((hook) => !CLI_HOOKS.has(hook))) return undefined;
  const listed: unknown[] = oclif['plugins'];
  // Globs would match dependencies by pattern: cw lists plain names.
  if (!listed.every((name) => typeof name === 'string' && !/[*?[\]{}!]/.test(name))) return undefined;
  const dependencies = objectOr(cli.dependencies ?? {});
  if (dependencies === undefined) return undefined;

  const finder = new PackageEntryFinder();
  const installed = listedPlugins(finder, dataDir, cli.name);
  if (installed === undefined) return undefined;
  const names = new Set<string>([cli.name, ...(listed as string[])]);
  for (const plugin of installed) {
    if (names.has(plugin.name)) return undefined;
    names.add(plugin.name);
  }

  const descriptors: PluginDescriptor[] = [];
  for (const name of listed as string[]) {
    // oclif's own plugins (help, plugins, autocomplete) are never cw plugins.
    if (name.startsWith('@oclif/') || !Object.hasOwn(dependencies, name)) continue;
    const root = resolvedRoot(finder, name, cliRoot, cli.name);
    if (root === undefined) return undefined;
    const descriptor = descriptorAt(name, root, 'core', cli.name);
    if (descriptor === undefined) return undefined;
    if (descriptor !== null) descriptors.push(descriptor);
  }
  for (const plugin of installed) {
    const descriptor = descriptorAt(plugin.name, plugin.root, plugin.type, cli.name);
    if (descriptor === undefined) return undefined;
    if (descriptor !== null) descriptors.push(descriptor);
  }
  return { descriptors, defaultRouteId: defaultRouteOf(cli) };
}

/**
 * The installed and linked plugins the data folder's package.json lists, with their roots; none
 * when it does not exist yet; undefined when it cannot be read or holds anything cw does not write.
 */
function listedPlugins(
  finder: PackageEntryFinder,
  dataDir: string | null,
  cliName: string,
): ListedPlugin[] | undefined {
  // No data folder: the built-ins alone, as a host that installs no plugins runs them.
  if (dataDir === null) return [];
  const file = join(dataDir, 'package.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : undefined;
  }
  const pjson = objectOr(parseJson(text));
  if (pjson === undefined) return undefined;
  const oclif = objectOr(pjson['oclif'] ?? {});
  const entries = oclif?.['plugins'] ?? [];
  if (!Array.isArray(entries)) return undefined;
  const users: ListedPlugin[] = [];
  const links: ListedPlugin[] = [];
  for (const value of entries) {
    const entry = objectOr(value);
    const name = entry?.['name'];
    if (entry === undefined || typeof name !== 'string' || name === '') return undefined;
    if (entry['type'] === 'user') {
      // A `root` would move the resolve's starting point; cw's installs never write one.
      if (entry['root'] !== undefined) return undefined;
      const root = resolvedRoot(finder, name, file, cliName) ?? legacyUserRoot(name, dataDir);
      if (root === undefined) return undefined;
      users.push({ name, type: 'user', root });
    } else if (entry['type'] === 'link') {
      const root = entry['root'];
      if (typeof root !== 'string' || !isAbsolute(root)) return undefined;
      links.push({ name, type: 'link', root });
    } else return undefined;
  }
  // oclif loads installed plugins before linked ones.
  return [...users, ...links];
}

/**
 * A plugin's descriptor from its root: null when it is not a cw plugin (no `cw` field, or cw's own
 * package), undefined when oclif would do more with it than read it.
 */
function descriptorAt(
  name: string,
  root: string,
  type: PluginDescriptor['type'],
  cliName: string,
): PluginDescriptor | null | undefined {
  const pjson = readPackageJson(root);
  if (pjson === undefined || pjson.name !== name) return undefined;
  const present = filesIn(root);
  if (pjson.oclif === undefined) {
    if (pjson['cli-engine'] !== undefined || RC_FILES.some(present)) return undefined;
  } else {
    const oclif = objectOr(pjson.oclif);
    if (oclif === undefined) return undefined;
    for (const key of ['commands', 'hooks', 'plugins', 'devPlugins', 'jitPlugins'])
      if (oclif[key] !== undefined && !isEmpty(oclif[key])) return undefined;
  }
  if (MANIFEST_FILES.some(present)) return undefined;
  if (pjson.cw === undefined || name === cliName) return null;
  return { name, version: pjson.version as string, root, cw: pjson.cw, type };
}

/**
 * Whether a file of a name oclif looks for is in `root`: one listing of the folder answers for all
 * ten names, where a look each would cost a preview ten calls per plugin. Names are compared without
 * case, so a file a case-blind file system would find is found; a name listed that oclif could not
 * open (a dangling link) only sends the line to oclif, which is never wrong. An unlistable folder is
 * asked name by name.
 */
function filesIn(root: string): (file: string) => boolean {
  let names: Set<string>;
  try {
    names = new Set(readdirSync(root).map((name) => name.toLowerCase()));
  } catch {
    return (file) => existsSync(join(root, file));
  }
  return (file) => names.has(file.toLowerCase());
}

/**
 * oclif's way to a plugin's folder: resolve the name from `from` as require does, then walk up from
 * the resolved file to the first folder whose path ends with the package's base name. The plain case
 * is found without Node's resolver (package-entry-file.ts), which answers the rest.
 */
function resolvedRoot(finder: PackageEntryFinder, name: string, from: string, selfName: string): string | undefined {
  let entry: string;
  try {
    entry = finder.entryFile(name, from, selfName) ?? require.resolve(name, { paths: [from] });
  } catch {
    return undefined;
  }
  for (let folder = dirname(entry); ; folder = dirname(folder)) {
    if (folder.endsWith(basename(name))) return folder;
    if (dirname(folder) === folder) return undefined;
  }
}

/** An installed plugin with no requirable entry, where oclif then looks first: the data folder's node_modules. */
function legacyUserRoot(name: string, dataDir: string): string | undefined {
  const root = join(dataDir, 'node_modules', name);
  return readPackageJson(root) === undefined ? undefined : root;
}

function readPackageJson(root: string): PackageJson | undefined {
  try {
    return objectOr(parseJson(readFileSync(join(root, 'package.json'), 'utf8'))) as PackageJson | undefined;
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function objectOr(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function isEmpty(value: unknown): boolean {
  return Array.isArray(value)
    ? value.length === 0
    : objectOr(value) !== undefined && Object.keys(value as object).length === 0;
}
