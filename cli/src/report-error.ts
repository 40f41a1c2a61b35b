import type { Command } from '@oclif/core';

interface ExitCoded {
  readonly exitCode?: number;
  /** Set by errors that compose their printed form from cw's own words and safe labels. */
  readonly safeMessage?: unknown;
}

/**
 * Prints a failure as one redacted line on stderr and exits non-zero. Usage errors are cw's own
 * fixed text; everything else may carry host text (paths, ids, upstream bodies) and is allowlisted.
 */
export async function reportError(command: Command, error: unknown): Promise<never> {
  const { safeErrorText, terminalSafe } = await import('@cw/core');
  const exitCode = (error as ExitCoded).exitCode ?? 1;
  const message = error instanceof Error ? error.message : String(error);
  const isUsage = error instanceof Error && error.name === 'UsageError';
  const safeMessage = (error as ExitCoded).safeMessage;
  const text = isUsage
    ? terminalSafe(message.split('\n')[0] ?? '')
    : typeof safeMessage === 'string'
      ? terminalSafe(safeMessage)
      : safeErrorText(message);
  const usage = isUsage ? message.split('\n').slice(1).join(' ') : '';
  process.stderr.write(`cw: ${text}\n${usage ? `${terminalSafe(usage)}\n` : ''}`);
  return command.exit(exitCode);
}
