import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuntimeSource } from './load-runtime.js';
import { runtimeSourceFromFiles } from './plugin-descriptors-from-files.js';

// What the oclif-free entries (fast-preview.ts, fast-send.ts) need before they may run a command:
// an environment oclif would not act on, and the plugins found from the files alone.

// Set, oclif prints its debug log or changes its own behaviour: only oclif can reproduce that.
const OCLIF_ENV = /^(DEBUG|CW_DEBUG|OCLIF_.*)$/;

// The cli package folder: this file is in its dist folder.
const CLI_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * The plugins and default route oclif's config would give, found without oclif; undefined, having
 * printed nothing, when the environment or the plugin files ask for something only oclif does.
 */
export function fastRuntimeSource(): RuntimeSource | undefined {
  if (Object.keys(process.env).some((name) => OCLIF_ENV.test(name) && process.env[name] !== '')) return undefined;
  // bin/run.js sets it before it comes here, as oclif reads it.
  const dataDir = process.env['CW_DATA_DIR'];
  if (dataDir === undefined || dataDir === '') return undefined;
  return runtimeSourceFromFiles(CLI_ROOT, dataDir);
}
