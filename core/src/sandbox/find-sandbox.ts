import type { SandboxMode } from './sandbox-config.js';
import { findTrustedProgram, trustedProgramFile } from './trusted-program.js';

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

/**
 * The sandbox program this machine offers, found without running anything: `bwrap` in the first
 * trusted folder on PATH on Linux (a root-owned system folder outside the workspace, never a
 * `.venv/bin` or `node_modules/.bin` the model could have filled; see trusted-program.ts),
 * sandbox-exec on macOS. Preview calls this, so it only looks at files (docs/performance.md).
 */
export function findSandboxProgram(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  options: { readonly workspace?: string } = {},
): SandboxProgram | null {
  if (platform === 'darwin')
    return trustedProgramFile(SANDBOX_EXEC, options) ? { kind: 'sandbox-exec', file: SANDBOX_EXEC } : null;
  if (platform !== 'linux') return null;
  const file = findTrustedProgram('bwrap', env, options);
  return file === null ? null : { kind: 'bubblewrap', file };
}

/** The sandbox state a mode gives on this machine. */
export function sandboxState(
  mode: SandboxMode,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  options: { readonly workspace?: string } = {},
): SandboxState {
  if (mode === 'off') return 'off';
  return findSandboxProgram(env, platform, options)?.kind ?? 'unavailable';
}
