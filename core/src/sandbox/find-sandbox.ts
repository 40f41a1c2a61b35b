import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { SandboxMode } from './sandbox-config.js';

/** What confines commands on this machine: the manifest's `session.sandbox`. */
export type SandboxState = 'bubblewrap' | 'sandbox-exec' | 'unavailable' | 'off';

/** A sandbox program found on this machine. */
export interface SandboxProgram {
  readonly kind: 'bubblewrap' | 'sandbox-exec';
  /** Absolute path of the program; never printed. */
  readonly file: string;
}

// macOS ships it here; an absolute path, so a `sandbox-exec` earlier on PATH cannot stand in for it.
const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The sandbox program this machine offers, found without running anything: `bwrap` on PATH on Linux,
 * sandbox-exec on macOS. Preview calls this, so it only looks at files (docs/performance.md).
 */
export function findSandboxProgram(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): SandboxProgram | null {
  if (platform === 'darwin') return executable(SANDBOX_EXEC) ? { kind: 'sandbox-exec', file: SANDBOX_EXEC } : null;
  if (platform !== 'linux') return null;
  // Only absolute PATH entries: a relative one would find a `bwrap` the workspace planted.
  for (const folder of (env['PATH'] ?? '').split(delimiter)) {
    if (folder === '' || !isAbsolute(folder)) continue;
    const file = join(folder, 'bwrap');
    if (executable(file)) return { kind: 'bubblewrap', file };
  }
  return null;
}

/** The sandbox state a mode gives on this machine. */
export function sandboxState(
  mode: SandboxMode,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): SandboxState {
  if (mode === 'off') return 'off';
  return findSandboxProgram(env, platform)?.kind ?? 'unavailable';
}
