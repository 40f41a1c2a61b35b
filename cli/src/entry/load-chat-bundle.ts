import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI_DIST } from '../package-folder.js';
import { compileBundle } from './compile-bundle.js';

// `cw chat` comes from a one-file bundle of its own (scripts/bundle-cli.mjs), compiled from the V8
// code cache the build made of a chat opening (compile-bundle.ts), so the core, the built-in plugins
// and the session code are neither resolved file by file nor parsed and compiled again before the
// prompt shows (docs/performance.md, "Every entry"). It is apart from the preview's bundle, which
// would otherwise read and hash the session code on every preview. A missing bundle means the
// compiled modules.

/** The chat bundle and its code cache, in the cli's dist folder. */
export const CHAT_BUNDLE = `${CLI_DIST}/fast-chat.cjs`;
export const CHAT_BUNDLE_CACHE = `${CLI_DIST}/fast-chat.cjs.v8cache`;

/** What the chat bundle exports (entry/open-chat.ts). */
export interface ChatEntry {
  readonly openChat: (argv: readonly string[]) => Promise<boolean>;
}

/** The chat entry: from the bundle when the build made one, else from the compiled modules. */
export async function chatEntry(bundleFile = CHAT_BUNDLE, cacheFile = CHAT_BUNDLE_CACHE): Promise<ChatEntry> {
  try {
    return compileBundle(bundleFile, cacheFile).exports as ChatEntry;
  } catch (error) {
    // No bundle (a build that stopped before it): the compiled modules do the same, more slowly.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Named at run time, so that a bundle holding this loader does not take the whole chat in with it.
  const compiled = pathToFileURL(join(CLI_DIST, 'entry', 'open-chat.js')).href;
  return (await import(compiled)) as ChatEntry;
}
