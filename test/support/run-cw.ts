import { join } from 'node:path';
import { Errors, run } from '@oclif/core';
import { REPO_ROOT } from './cw-fixture.js';

/** What one in-process cw invocation printed, and how it ended. */
export interface CwRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/**
 * Runs cw in this process with argv passed through untouched (@oclif/test re-splits arguments on
 * spaces, which would destroy the prompt bytes the parity tests depend on).
 */
export async function runCw(argv: readonly string[]): Promise<CwRun> {
  const out: string[] = [];
  const err: string[] = [];
  const originalOut = process.stdout.write.bind(process.stdout);
  const originalErr = process.stderr.write.bind(process.stderr);
  const capture = (sink: string[]) =>
    ((chunk: string | Uint8Array) => {
      sink.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture(out);
  process.stderr.write = capture(err);
  let exitCode = 0;
  try {
    await run([...argv], join(REPO_ROOT, 'cli'));
  } catch (error) {
    if (error instanceof Errors.ExitError) exitCode = error.oclif.exit ?? 1;
    else {
      exitCode = 1;
      err.push(String(error));
    }
  } finally {
    process.stdout.write = originalOut;
    process.stderr.write = originalErr;
  }
  return { stdout: out.join(''), stderr: err.join(''), exitCode };
}
