import { stat } from 'node:fs/promises';

/** Resource limits every sandboxed command runs under: config `sandbox.limits` (docs/config.md). */
export interface SandboxLimits {
  /** RLIMIT_NPROC: processes and threads the sandbox's user may have at once. */
  readonly processes: number;
  /** RLIMIT_FSIZE in MiB: the largest file a command may write. */
  readonly file_size_mb: number;
}

/** The limits when config.json names none: room for a parallel build, not for a fork bomb or a disk filler. */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { processes: 1024, file_size_mb: 1024 };

// util-linux's prlimit, looked up only where the system installs it: a PATH entry could be the workspace.
const PRLIMIT_LOCATIONS = ['/usr/bin/prlimit', '/bin/prlimit'] as const;

/** Where prlimit is on this machine, or null: then the sandbox refuses to run commands unbounded. */
export async function findPrlimit(): Promise<string | null> {
  for (const location of PRLIMIT_LOCATIONS) {
    try {
      if ((await stat(location)).isFile()) return location;
    } catch {
      // Not here; the next location.
    }
  }
  return null;
}

/**
 * The argv that sets the limits, soft and hard, and then runs the command. It runs inside bubblewrap,
 * after every capability is dropped, so nothing the command starts can raise them again.
 */
export function limitsPrelude(prlimit: string, limits: SandboxLimits): string[] {
  const bytes = limits.file_size_mb * 1024 * 1024;
  return [prlimit, `--nproc=${limits.processes}:${limits.processes}`, `--fsize=${bytes}:${bytes}`, '--'];
}
