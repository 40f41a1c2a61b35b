import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

// A one-file bundle the build made (scripts/bundle-cli.mjs: the preview and send entries, the chat
// entry), compiled from the V8 code cache the build produced next to it, so V8 neither parses nor
// compiles what the build's run of it already did (docs/performance.md, "One file, compiled once").
// The cache is read, never written, here: a preview changes nothing on disk. Whatever is wrong with
// the cache (missing, made for another bundle or another Node, damaged) only means compiling without it.

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
export const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname, __cwImport, __cwBundle) {';
/** The end of that wrapper. */
export const BUNDLE_TAIL = '\n})';

/** What compileBundle may be told: `compiled` hears of each bundle it compiles, companions included. */
export interface CompileOptions {
  readonly compiled?: (bundle: CompiledBundle, bundleFile: string, cacheFile: string) => void;
}

/**
 * Compiles and runs the CommonJS bundle at `bundleFile`, with the code cache at `cacheFile` when it
 * fits; the file is the build's code inside BUNDLE_HEAD and BUNDLE_TAIL. The bundle's dynamic
 * import()s were renamed __cwImport by the build and import from here. `__cwBundle(name)` hands the
 * bundle the exports of a companion bundle beside it, `name.cjs` with its cache `name.cjs.v8cache`,
 * compiled the same way the first time it is asked for (or, when the file is missing, of the package
 * `name` itself): code only some runs need (zod, for a config file), kept out of the file every run
 * reads and hashes (docs/performance.md).
 */
export function compileBundle(bundleFile: string, cacheFile: string, options: CompileOptions = {}): CompiledBundle {
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
  const folder = dirname(bundleFile);
  // One compile per companion: a second would be a second copy of its classes.
  const companions = new Map<string, unknown>();
  const companion = (name: string): unknown => {
    if (!companions.has(name)) companions.set(name, companionExports(join(folder, `${name}.cjs`), name));
    return companions.get(name);
  };
  // No companion file (a build that stopped before writing it): the package itself, required from
  // the bundle's folder, as a missing bundle means the compiled modules.
  const companionExports = (file: string, name: string): unknown => {
    try {
      return compileBundle(file, `${file}.v8cache`, options).exports;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || (error as NodeJS.ErrnoException).path !== file)
        throw error;
      return require(name);
    }
  };
  const importer = (specifier: string) =>
    // A Node module is required, not imported: the first import() sets up Node's ES module loader,
    // which a preview need not pay for. What it gives has the import's shape, default included.
    specifier.startsWith('node:') ? Promise.resolve(builtinNamespace(require(specifier))) : import(specifier);
  run(module.exports, require, module, bundleFile, folder, importer, companion);
  const compiled = { exports: module.exports, script, cache };
  options.compiled?.(compiled, bundleFile, cacheFile);
  return compiled;
}
