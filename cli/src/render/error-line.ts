// The one line cw prints for a failure, shared by the stderr report (report-error.ts) and the
// --json document (json-error.ts); its own module so that neither of those imports the other.

interface ExitCoded {
  readonly exitCode?: number;
  /** Set by errors that compose their printed form from cw's own words and safe labels. */
  readonly safeMessage?: unknown;
}

/**
 * The one line cw prints for a failure. Usage errors are cw's own fixed text; errors with a
 * `safeMessage` composed it from cw's words and safe labels; everything else may carry host text
 * (paths, ids, upstream bodies) and crosses the error-text allowlist.
 */
export async function errorLine(error: unknown): Promise<{ text: string; usage: string; exitCode: number }> {
  const { safeErrorText, terminalSafe } = await import('@cw/core');
  // oclif's own parse errors (unknown flag, missing or extra argument) are usage errors: exit 2. Their
  // text repeats what was typed, so it crosses the error-text allowlist like any host text.
  const exitCode = (error as ExitCoded).exitCode ?? (isOclifParseError(error) ? 2 : 1);
  const message = error instanceof Error ? error.message : String(error);
  const isUsage = error instanceof Error && error.name === 'UsageError';
  const safeMessage = (error as ExitCoded).safeMessage;
  const text = isUsage
    ? terminalSafe(message.split('\n')[0] ?? '')
    : typeof safeMessage === 'string'
      ? terminalSafe(safeMessage)
      : safeErrorText(message);
  const usage = isUsage ? terminalSafe(message.split('\n').slice(1).join(' ')) : '';
  return { text, usage, exitCode };
}

function isOclifParseError(error: unknown): boolean {
  return error instanceof Error && (error as { oclif?: unknown }).oclif !== undefined && 'parse' in error;
}
