import type { HeldEntry } from '@cw/core';
import { builtinEntries } from './builtin-entries.js';
import type { RuntimeSource } from './load-runtime.js';
import { CLI_ROOT } from '../package-folder.js';
import { runtimeSourceFromFiles } from '../plugin-packages/plugin-descriptors-from-files.js';

// What the oclif-free entries (fast-preview.ts, fast-send.ts) need before they may run a command:
// an environment oclif would not act on, and the plugins found from the files alone.

// Set, oclif prints its debug log or changes its own behaviour: only oclif can reproduce that.
const OCLIF_ENV = /^(DEBUG|CW_DEBUG|OCLIF_.*)$/;

/**
 * The plugins and default route oclif's config would give, found without oclif; undefined, having
 * printed nothing, when the environment or the plugin files ask for something only oclif does.
 */
export function fastRuntimeSource(): RuntimeSource | undefined {
  if (Object.keys(process.env).some((name) => OCLIF_ENV.test(name) && process.env[name] !== '')) return undefined;
  // bin/run.js sets it before it comes here, as oclif reads it.
  const dataDir = process.env['CW_DATA_DIR'];
  if (dataDir === undefined || dataDir === '') return undefined;
  const source = runtimeSourceFromFiles(CLI_ROOT, dataDir);
  return source === undefined || builtinEntries.size === 0 ? source : { ...source, held: heldBuiltin };
}

/** A built-in plugin's entry module from the bundle, when the package found is the one bundled. */
const heldBuiltin: HeldEntry = (descriptor) => {
  if (descriptor.type !== 'core') return undefined;
  const entry = builtinEntries.get(descriptor.name);
  const register = (descriptor.cw as { register?: unknown } | undefined)?.register;
  return entry !== undefined && entry.version === descriptor.version && entry.register === register
    ? entry.load()
    : undefined;
};
