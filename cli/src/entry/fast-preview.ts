import { fastPreviewArgs } from '../flags/fast-preview-args.js';
import { fastRuntimeSource } from './fast-runtime-source.js';
import { runPreview } from '../run/run-preview.js';

// `cw preview-request` without oclif: loading oclif and letting it discover every plugin costs more
// than the whole start-up budget of a preview. bin/run.js calls this first for the preview's names;
// it reads the flags (fast-preview-args.ts) and finds the plugins (fast-runtime-source.ts) itself,
// then runs the very code the command runs (run-preview.ts). Whatever it is not sure it reproduces
// exactly, it declines before printing anything, and oclif runs the command as ever.

/**
 * Runs `cw preview-request <argv>` when this entry can do exactly what the command would; false,
 * having done nothing, when oclif must. The exit code is the command's.
 */
export async function fastPreview(argv: readonly string[]): Promise<boolean> {
  const args = fastPreviewArgs(argv);
  if (args === undefined) return false;
  const source = fastRuntimeSource();
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
