import { copyFile, cp, lstat, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type ScaffoldOptions, ScaffoldUsageError } from './scaffold-options.js';

/** The scaffold this cw ships is missing or does not match its own template; nothing was written. */
export class ScaffoldBrokenError extends Error {
  readonly safeMessage: string;
  readonly exitCode = 1;
  constructor(what: string) {
    const message = `this cw's plugin scaffold is incomplete (${what}); reinstall cw, or run npm run build in a clone`;
    super(message);
    this.name = 'ScaffoldBrokenError';
    this.safeMessage = message;
  }
}

/** Where the scaffold sits in the cli package: the template's files and the packed @cw packages. */
export interface ScaffoldSource {
  /** A copy of plugin-template/, its `.gitignore` stored as `gitignore`. */
  readonly templateDir: string;
  /** The packed @cw packages and scaffold.json, which lists them (scripts/build-plugin-scaffold.mjs). */
  readonly packagesDir: string;
  /** scaffold.json's `packages`. */
  readonly packages: readonly ScaffoldPackage[];
}

/** One packed @cw package the scaffold ships. */
export interface ScaffoldPackage {
  readonly name: string;
  readonly version: string;
  /** The tarball's file name in `packagesDir`. */
  readonly file: string;
}

/** The folder, inside the new project, that holds the @cw tarballs its package.json names. */
export const PACKAGES_FOLDER = 'cw-packages';

// Never copied from a template folder: what an install or a build made there.
const SKIPPED = /[\\/](node_modules|dist)$|\.tsbuildinfo$|\.tgz$/;
const ROW_FILE = join('src', 'example-capability-rows.ts');
const TEMPLATE_PACKAGE = 'cw-provider-example';

/** Reads the scaffold shipped in the cli package at `scaffoldDir` (cli/dist/plugin-scaffold). */
export async function readScaffold(scaffoldDir: string): Promise<ScaffoldSource> {
  let listed: { packages?: unknown };
  try {
    listed = JSON.parse(await readFile(join(scaffoldDir, 'scaffold.json'), 'utf8')) as typeof listed;
  } catch {
    throw new ScaffoldBrokenError('scaffold.json is missing');
  }
  const packages = Array.isArray(listed.packages) ? (listed.packages as ScaffoldPackage[]) : [];
  const valid = (entry: ScaffoldPackage): boolean =>
    typeof entry?.name === 'string' &&
    entry.name.startsWith('@cw/') &&
    typeof entry.version === 'string' &&
    typeof entry.file === 'string' &&
    basename(entry.file) === entry.file;
  if (packages.length === 0 || !packages.every(valid)) throw new ScaffoldBrokenError('scaffold.json is malformed');
  return { templateDir: join(scaffoldDir, 'template'), packagesDir: join(scaffoldDir, PACKAGES_FOLDER), packages };
}

/** A TypeScript single-quoted string literal of `text`. */
function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Replaces `from`, which must occur exactly once: a template that drifted fails closed instead of half-filled. */
function replaceOnce(text: string, from: string, to: string, file: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + from.length) !== -1)
    throw new ScaffoldBrokenError(`${file} does not have the expected placeholder once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** The row file with the route's ids, endpoint, dialect and key variable filled in. */
function fillRow(text: string, options: ScaffoldOptions): string {
  const fields: [string, string][] = [
    ["provider_id: 'example'", `provider_id: ${quoted(options.providerId)}`],
    ["provider_display: 'Example provider'", `provider_display: ${quoted(options.providerDisplay)}`],
    ["route_id: 'example-chat'", `route_id: ${quoted(options.routeId)}`],
    ["dialect: 'chat-completions'", `dialect: ${quoted(options.dialect)}`],
    ["base_url: 'https://api.example.com/v1'", `base_url: ${quoted(options.baseUrl)}`],
    ["api_key_env: 'EXAMPLE_API_KEY'", `api_key_env: ${quoted(options.keyEnv)}`],
  ];
  return fields.reduce((filled, [from, to]) => replaceOnce(filled, from, to, ROW_FILE), text);
}

type PackageJson = Record<string, unknown> & { devDependencies?: Record<string, string> };

/**
 * The template's package.json made the new plugin's own: its name, published (not private), and its
 * @cw devDependencies taken from the tarballs in the project, with `overrides` so that a @cw package
 * another one depends on (the dialect needs the kit) resolves to the same tarball, never a registry.
 */
function fillPackageJson(text: string, options: ScaffoldOptions, packages: readonly ScaffoldPackage[]): string {
  const pjson = JSON.parse(text) as PackageJson;
  const { private: _private, ...rest } = pjson;
  const devDependencies = { ...(pjson.devDependencies ?? {}) };
  const overrides: Record<string, string> = {};
  for (const entry of packages) {
    if (devDependencies[entry.name] === undefined) continue;
    devDependencies[entry.name] = `file:${PACKAGES_FOLDER}/${entry.file}`;
    overrides[entry.name] = `$${entry.name}`;
  }
  const missing = Object.keys(devDependencies).filter(
    (name) => name.startsWith('@cw/') && !devDependencies[name]?.startsWith('file:'),
  );
  if (missing.length > 0) throw new ScaffoldBrokenError('a @cw package the template needs is not packed');
  return `${JSON.stringify({ ...rest, name: options.packageName, devDependencies, overrides }, null, 2)}\n`;
}

/** Whether `folder` may receive the project: absent, or an empty folder that is not a link. */
async function checkTarget(folder: string): Promise<void> {
  let stat: Awaited<ReturnType<typeof lstat>>;
  try {
    stat = await lstat(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!stat.isDirectory() || (await readdir(folder)).length > 0)
    throw new ScaffoldUsageError(
      'the folder to write the plugin into exists and is not empty; pick another name or an empty folder with --dir',
    );
}

async function fillFile(file: string, fill: (text: string) => string): Promise<void> {
  await writeFile(file, fill(await readFile(file, 'utf8')));
}

/**
 * Writes a new plugin project into `folder`: the template with the options filled in and the @cw
 * tarballs beside it. It is built in a temporary folder next to `folder` and renamed into place, so
 * a failure at any step leaves nothing behind.
 */
export async function writePluginScaffold(
  source: ScaffoldSource,
  options: ScaffoldOptions,
  folder: string,
): Promise<void> {
  await checkTarget(folder);
  const parent = dirname(folder);
  try {
    if (!(await lstat(parent)).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new ScaffoldUsageError('the folder to write the plugin into has no parent folder; create it first');
  }
  const staging = await mkdtemp(join(parent, '.cw-plugins-new-'));
  try {
    await cp(source.templateDir, staging, {
      recursive: true,
      filter: (path) => !SKIPPED.test(path),
      errorOnExist: true,
      verbatimSymlinks: true,
    }).catch(() => {
      throw new ScaffoldBrokenError('the template could not be copied');
    });
    const ignore = join(staging, 'gitignore');
    if ((await lstat(ignore).catch(() => null)) !== null) await rename(ignore, join(staging, '.gitignore'));
    await fillFile(join(staging, 'package.json'), (text) => fillPackageJson(text, options, source.packages));
    await fillFile(join(staging, ROW_FILE), (text) => fillRow(text, options));
    for (const test of ['index.test.ts', 'example-route.test.ts'])
      await fillFile(join(staging, 'src', test), (text) =>
        text.replaceAll(`'${TEMPLATE_PACKAGE}'`, quoted(options.packageName)),
      );
    await mkdir(join(staging, PACKAGES_FOLDER));
    for (const entry of source.packages)
      await copyFile(join(source.packagesDir, entry.file), join(staging, PACKAGES_FOLDER, entry.file)).catch(() => {
        throw new ScaffoldBrokenError(`the packed ${entry.name} is missing`);
      });
    // An empty folder the user named is replaced whole; anything created in it meanwhile makes this fail.
    await rename(staging, folder).catch(() => {
      throw new ScaffoldUsageError(
        'the folder to write the plugin into changed while cw wrote the plugin; try again with an empty folder',
      );
    });
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
