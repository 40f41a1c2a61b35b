import { fastRuntimeSource } from './fast-runtime-source.js';
import { fastSendArgs } from '../flags/fast-send-args.js';
import { runSend } from '../run/run-send.js';

// `cw send` without oclif: loading oclif and its plugin discovery is most of a send's start-up, and
// a native agent reaches its first request in less time than that alone (docs/performance.md).
// bin/run.js calls this first for `send`; it reads the flags (fast-send-args.ts) and finds the
// plugins (fast-runtime-source.ts) itself, then runs the very code the command runs (run-send.ts).
// Whatever it is not sure it reproduces exactly, it declines before printing anything, and oclif
// runs the command as ever.

/**
 * Runs `cw send <argv>` when this entry can do exactly what the command would; false, having done
 * nothing, when oclif must. The exit code is the command's.
 */
export async function fastSend(argv: readonly string[]): Promise<boolean> {
  const args = fastSendArgs(argv);
  if (args === undefined) return false;
  const source = fastRuntimeSource();
  if (source === undefined) return false;
  // oclif ends a failed command with process.exit and its code; so does this.
  await runSend(
    argv,
    async () => args.parse(),
    () => source,
    { exit: (code) => process.exit(code) },
  );
  return true;
}
