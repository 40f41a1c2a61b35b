import { existsSync } from 'node:fs';
import { CLI_DIST } from '../package-folder.js';
import { cwPaths } from '@cw/core/home';
import { type CompiledBundle, compileBundle } from './compile-bundle.js';

// The launcher (launch.ts) takes the preview and send entries from here: from their one-file bundle
// (compile-bundle.ts) when the build made one, else from the compiled modules, as before there was one.

/** The oclif-free entries of preview and send. */
export interface FastEntries {
  readonly fastPreview: (argv: readonly string[]) => Promise<boolean>;
  readonly fastSend: (argv: readonly string[]) => Promise<boolean>;
}

/** The preview and send bundle, and its code cache, in the cli's dist folder. */
export const FAST_BUNDLE = `${CLI_DIST}/fast-entry.cjs`;
export const FAST_BUNDLE_CACHE = `${CLI_DIST}/fast-entry.cjs.v8cache`;
/**
 * The code cache of a preview with no config file alone: V8 reads all of a cache whether the run
 * needs it or not, and this one holds neither the send nor the config checks (zod), about a third less.
 */
export const FAST_PREVIEW_CACHE = `${CLI_DIST}/fast-entry.cjs.preview.v8cache`;

// The preview's names, as the launcher hands them over.
const PREVIEW_COMMANDS: readonly string[] = ['preview-request', 'dryrun', 'preview_request'];

/** The code cache made from the run most like this command line: a preview with no config file, or the rest. */
export function cacheFileFor(command: string | undefined, configFileExists: () => boolean): string {
  return command !== undefined && PREVIEW_COMMANDS.includes(command) && !configFileExists()
    ? FAST_PREVIEW_CACHE
    : FAST_BUNDLE_CACHE;
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
