import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { CLI_DIST } from '../package-folder.js';
import { cwPaths } from '@cw/core/home';

// bin/run.js takes the oclif-free entries from here. When the build made the one-file bundle
// (scripts/bundle-cli.mjs), they come from it: one file to read instead of a few hundred, compiled
// from the V8 code cache the build produced next to it, so V8 neither parses nor compiles what the
// last run already did (docs/performance.md, "One file, compiled once"). The cache is read, never
// written, here: a preview changes nothing on disk. Whatever is wrong with the cache (missing, made
// for another bundle or another Node, damaged) only means compiling without it; a missing bundle
// means the compiled modules, as before there was one.

/** The oclif-free entries bin/run.js calls. */
export interface FastEntries {
  readonly fastPreview: (argv: readonly string[]) => Promise<boolean>;
  readonly fastSend: (argv: readonly string[]) => Promise<boolean>;
}

/** What became of the code cache when a bundle was compiled. */
export type CacheUse = 'used' | 'missing' | 'stale' | 'corrupt' | 'rejected';

/** A compiled bundle: its exports, the script (for producing a cache) and what became of the cache. */
export interface CompiledBundle {
  readonly exports: unknown;
  readonly script: Script;
  readonly cache: CacheUse;
}

// The cache file: the SHA-256 of the bundle it was made from, the SHA-256 of the V8 data, the data.
const HASH_BYTES = 32;
const HEADER_BYTES = 2 * HASH_BYTES;

/** The bundle bin/run.js runs, and its code cache, beside this module in the cli's dist folder. */
export const FAST_BUNDLE = `${CLI_DIST}/fast-entry.cjs`;
export const FAST_BUNDLE_CACHE = `${CLI_DIST}/fast-entry.cjs.v8cache`;
/**
 * The code cache of a preview with no config file alone: V8 reads all of a cache whether the run
 * needs it or not, and this one holds neither the send nor the config checks (zod), about a third less.
 */
export const FAST_PREVIEW_CACHE = `${CLI_DIST}/fast-entry.cjs.preview.v8cache`;

// The preview's names, as bin/run.js hands them over.
const PREVIEW_COMMANDS: readonly string[] = ['preview-request', 'dryrun', 'preview_request'];

/** The code cache made from the run most like this command line: a preview with no config file, or the rest. */
export function cacheFileFor(command: string | undefined, configFileExists: () => boolean): string {
  return command !== undefined && PREVIEW_COMMANDS.includes(command) && !configFileExists()
    ? FAST_PREVIEW_CACHE
    : FAST_BUNDLE_CACHE;
}

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

/**
 * The V8 data in `cacheBytes` when it was made from exactly `bundle` and is whole; otherwise why
 * not. V8 checks its own version and flags, but only the length of the source, and trusts the data:
 * both hashes are checked here first.
 */
export function cacheDataFor(
  bundle: Buffer,
  cacheBytes: Buffer | undefined,
): Buffer | Exclude<CacheUse, 'used' | 'rejected'> {
  if (cacheBytes === undefined) return 'missing';
  if (cacheBytes.length <= HEADER_BYTES) return 'corrupt';
  if (!cacheBytes.subarray(0, HASH_BYTES).equals(sha256(bundle))) return 'stale';
  const data = cacheBytes.subarray(HEADER_BYTES);
  if (!cacheBytes.subarray(HASH_BYTES, HEADER_BYTES).equals(sha256(data))) return 'corrupt';
  return data;
}

/** The cache file's bytes for V8 data made from `bundle` (cacheDataFor reads them back). */
export function cacheFileBytes(bundle: Buffer, data: Buffer): Buffer {
  return Buffer.concat([sha256(bundle), sha256(data), data]);
}

/** A Node module's exports as `import()` gives them: every named export, and the whole as `default`. */
function builtinNamespace(exports: Record<string, unknown>): Record<string, unknown> {
  return { ...exports, default: exports };
}

/**
 * What the build writes around the bundle's code, so that the file compiles to the function the loader
 * calls. Written once at build time: wrapping it here would join two strings V8 must then copy whole.
 */
export const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname, __cwImport) {';
/** The end of that wrapper. */
export const BUNDLE_TAIL = '\n})';

/**
 * Compiles and runs the CommonJS bundle at `bundleFile`, with the code cache at `cacheFile` when it
 * fits; the file is the build's code inside BUNDLE_HEAD and BUNDLE_TAIL. The bundle's dynamic
 * import()s were renamed __cwImport by the build and import from here.
 */
export function compileBundle(bundleFile: string, cacheFile: string): CompiledBundle {
  const bundle = readFileSync(bundleFile);
  let cacheBytes: Buffer | undefined;
  try {
    cacheBytes = readFileSync(cacheFile);
  } catch {
    cacheBytes = undefined;
  }
  const data = cacheDataFor(bundle, cacheBytes);
  // The build writes the bundle in ASCII, which reads as Latin-1 without UTF-8's slower decoding.
  const source = bundle.toString(isAscii(bundle) ? 'latin1' : 'utf8');
  const script = new Script(source, {
    filename: bundleFile,
    ...(typeof data === 'string' ? {} : { cachedData: data }),
  });
  const cache: CacheUse = typeof data === 'string' ? data : script.cachedDataRejected === true ? 'rejected' : 'used';
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const require = createRequire(bundleFile);
  run(module.exports, require, module, bundleFile, dirname(bundleFile), (specifier: string) =>
    // A Node module is required, not imported: the first import() sets up Node's ES module loader,
    // which a preview need not pay for. What it gives has the import's shape, default included.
    specifier.startsWith('node:') ? Promise.resolve(builtinNamespace(require(specifier))) : import(specifier),
  );
  return { exports: module.exports, script, cache };
}

/**
 * The oclif-free entries: from the bundle when the build made one, else from the compiled modules.
 * `command` is the command word of the line, which picks the code cache.
 */
export async function fastEntries(command: string | undefined = process.argv[2]): Promise<FastEntries> {
  let bundled: CompiledBundle | undefined;
  try {
    const cacheFile = cacheFileFor(command, () => existsSync(cwPaths().configFile));
    bundled = compileBundle(FAST_BUNDLE, cacheFile);
  } catch (error) {
    // No bundle (a build that stopped before it): the compiled modules do the same, more slowly.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (bundled !== undefined) return bundled.exports as FastEntries;
  const [{ fastPreview }, { fastSend }] = await Promise.all([import('./fast-preview.js'), import('./fast-send.js')]);
  return { fastPreview, fastSend };
}
