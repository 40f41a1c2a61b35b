// The one rule for tests that need the real command sandbox (docs/security.md): they run wherever
// bubblewrap is on PATH; where it is absent they are skipped, with one line naming the package to
// install, so `npm test` passes on a fresh machine; under CI (CI=true, which .ci/run sets after
// installing bubblewrap) an absent bubblewrap fails them instead, so CI never passes by skipping.
import { expect } from 'vitest';
import { findSandboxProgram } from '@cw/core';

/** What a test that needs bubblewrap does on this machine. */
export type BubblewrapDecision =
  | { readonly kind: 'run' }
  | { readonly kind: 'skip'; readonly line: string }
  | { readonly kind: 'fail'; readonly line: string };

/** The line printed once for a file whose sandbox tests are skipped. */
export const BUBBLEWRAP_SKIP_LINE =
  'sandbox tests skipped: bubblewrap (bwrap) is not on PATH; install it to run them: apt-get install bubblewrap';

/** The message a sandbox test fails with under CI when bubblewrap is absent. */
export const BUBBLEWRAP_CI_LINE =
  'bubblewrap (bwrap) is not on PATH and CI is set: the sandbox tests must run in CI; .ci/run installs it (apt-get install -y bubblewrap)';

/** Whether the environment says it is CI: CI set to anything but empty, 0 or false, as CI services set it. */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = (env['CI'] ?? '').trim().toLowerCase();
  return value !== '' && value !== '0' && value !== 'false';
}

/** The decision for a machine: bubblewrap found, or not found and CI or not. */
export function bubblewrapDecision(found: boolean, env: NodeJS.ProcessEnv): BubblewrapDecision {
  if (found) return { kind: 'run' };
  return isCi(env) ? { kind: 'fail', line: BUBBLEWRAP_CI_LINE } : { kind: 'skip', line: BUBBLEWRAP_SKIP_LINE };
}

// Found the way cw itself finds it, on PATH; the tests exercise the Linux sandbox.
const decision = bubblewrapDecision(findSandboxProgram(process.env, 'linux') !== null, process.env);
let said = false;

/**
 * Called first in a test that needs bubblewrap, with the test's context: the test goes on, or is
 * skipped (the first skip in a file says why, once, on stderr), or fails at once with the CI line.
 */
export function needBubblewrap(context: { skip: (note?: string) => void }): void {
  if (decision.kind === 'skip') {
    if (!said) process.stderr.write(`${decision.line}\n`);
    said = true;
    context.skip(decision.line);
    return;
  }
  requireBubblewrap();
}

/** Fails a test with the CI line when bubblewrap is absent and CI is set. */
function requireBubblewrap(): void {
  expect(decision.kind === 'fail' ? decision.line : null, 'bubblewrap is required here').toBeNull();
}

/**
 * stderr without the one notice cw prints before a send on a machine with no sandbox (docs/security.md),
 * so a test about its other lines reads the same with and without bubblewrap.
 */
export function withoutNoSandboxNotice(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !line.startsWith('cw: no sandbox found on this machine'))
    .join('\n');
}

/** Whether an event (an agent event or a stream-json line) is that same notice. */
export function isNoSandboxNotice(event: unknown): boolean {
  return JSON.stringify(event).includes('no sandbox found on this machine');
}
