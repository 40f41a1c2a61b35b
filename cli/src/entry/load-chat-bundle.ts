import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { CLI_DIST } from '../package-folder.js';

// `cw chat` comes from a one-file bundle of its own (scripts/bundle-cli.mjs), compiled from the V8
// code cache the build made of a chat opening, so the core, the built-in plugins and the session
// code are neither resolved file by file nor parsed and compiled again before the prompt shows
// (docs/performance.md, "Every entry"). It is apart from the preview's bundle, which would otherwise
// read and hash the session code on every preview. The cache is read, never written, here; a cache
// that does not fit the bundle (missing, made for another bundle or another Node, damaged) only
// means compiling without it, and a missing bundle means the compiled modules.

/** The chat bundle and its code cache, in the cli's dist folder. */
export const CHAT_BUNDLE = `${CLI_DIST}/fast-chat.cjs`;
export const CHAT_BUNDLE_CACHE = `${CLI_DIST}/fast-chat.cjs.v8cache`;

/** What the chat bundle exports (entry/open-chat.ts). */
export interface ChatEntry {
  readonly openChat: (argv: readonly string[]) => Promise<boolean>;
}

/** The compiled bundle, and its script, from which the build makes the cache. */
export interface CompiledChatBundle {
  readonly exports: ChatEntry;
  readonly script: Script;
  /** Whether V8 took the cache. */
  readonly cached: boolean;
}

// The cache file: the SHA-256 of the bundle it was made from, the SHA-256 of the V8 data, the data.
const HASH_BYTES = 32;
const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

/** The cache file's bytes for V8 `data` made from `bundle`. */
export function chatCacheBytes(bundle: Buffer, data: Buffer): Buffer {
  return Buffer.concat([sha256(bundle), sha256(data), data]);
}

/**
 * The V8 data in `cacheBytes` when it was made from exactly `bundle` and is whole, else undefined.
 * V8 checks its own version and flags but only the source's length, and trusts the data: both are hashed.
 */
export function chatCacheData(bundle: Buffer, cacheBytes: Buffer | undefined): Buffer | undefined {
  if (cacheBytes === undefined || cacheBytes.length <= 2 * HASH_BYTES) return undefined;
  if (!cacheBytes.subarray(0, HASH_BYTES).equals(sha256(bundle))) return undefined;
  const data = cacheBytes.subarray(2 * HASH_BYTES);
  return cacheBytes.subarray(HASH_BYTES, 2 * HASH_BYTES).equals(sha256(data)) ? data : undefined;
}

/**
 * Compiles and runs the CommonJS bundle at `bundleFile`, with the cache at `cacheFile` when it fits.
 * A script compiled with a cache cannot import(): the build renamed the bundle's dynamic imports
 * __cwImport, which imports from here.
 */
export function compileChatBundle(bundleFile: string, cacheFile: string): CompiledChatBundle {
  const bundle = readFileSync(bundleFile);
  let cacheBytes: Buffer | undefined;
  try {
    cacheBytes = readFileSync(cacheFile);
  } catch {
    cacheBytes = undefined;
  }
  const data = chatCacheData(bundle, cacheBytes);
  // The build writes the bundle in ASCII, which reads as Latin-1 without UTF-8's slower decoding.
  const source = bundle.toString(isAscii(bundle) ? 'latin1' : 'utf8');
  const wrapped = `(function (exports, require, module, __filename, __dirname, __cwImport) {${source}\n})`;
  const script = new Script(wrapped, { filename: bundleFile, ...(data === undefined ? {} : { cachedData: data }) });
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(
    module.exports,
    createRequire(bundleFile),
    module,
    bundleFile,
    dirname(bundleFile),
    (specifier: string) => import(specifier),
  );
  return {
    exports: module.exports as ChatEntry,
    script,
    cached: data !== undefined && script.cachedDataRejected !== true,
  };
}

/** The chat entry: from the bundle when the build made one, else from the compiled modules. */
export async function chatEntry(bundleFile = CHAT_BUNDLE, cacheFile = CHAT_BUNDLE_CACHE): Promise<ChatEntry> {
  try {
    return compileChatBundle(bundleFile, cacheFile).exports;
  } catch (error) {
    // No bundle (a build that stopped before it): the compiled modules do the same, more slowly.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Named at run time, so that a bundle holding this loader does not take the whole chat in with it.
  const compiled = pathToFileURL(join(CLI_DIST, 'entry', 'open-chat.js')).href;
  return (await import(compiled)) as ChatEntry;
}
