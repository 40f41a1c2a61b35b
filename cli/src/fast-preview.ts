import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastPreviewArgs } from './fast-preview-args.js';
import { runtimeSourceFromFiles } from './plugin-descriptors-from-files.js';
import { runPreview } from './run-preview.js';

// `cw preview-request` without oclif: loading oclif and letting it discover every plugin costs more
// than the whole start-up budget of a preview. bin/run.js calls this first for the preview's names;
// it reads the flags (fast-preview-args.ts) and finds the plugins (plugin-descriptors-from-files.ts)
// itself, then runs the very code the command runs (run-preview.ts). Whatever it is not sure it
// reproduces exactly, it declines before printing anything, and oclif runs the command as ever.

// Set, oclif prints its debug log or changes its own behaviour: only oclif can reproduce that.
const OCLIF_ENV = /^(DEBUG|CW_DEBUG|OCLIF_.*)$/;

// The cli package folder: this file is in its dist folder.
const CLI_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * Runs `cw preview-request <argv>` when this entry can do exactly what the command would; false,
 * having done nothing, when oclif must. The exit code is the command's.
 */
export async function fastPreview(argv: readonly string[]): Promise<boolean> {
  const args = fastPreviewArgs(argv);
  if (args === undefined) return false;
  if (Object.keys(process.env).some((name) => OCLIF_ENV.test(name) && process.env[name] !== '')) return false;
  // bin/run.js sets it before it comes here, as oclif reads it.
  const dataDir = process.env['CW_DATA_DIR'];
  if (dataDir === undefined || dataDir === '') return false;
  const source = runtimeSourceFromFiles(CLI_ROOT, dataDir);
  if (source === undefined) return false;
  // oclif ends a failed command with process.exit and its code; so does this.
  await runPreview(
    argv,
    async () => args.parse(),
    () => source,
    { exit: (code) => process.exit(code) },
  );
  return true;
}
