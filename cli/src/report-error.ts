/**
 * What reporting a failure needs from its command: a way to end with an exit code. An oclif Command
 * is one; the oclif-free preview entry (fast-preview.ts) passes its own, so neither path loads oclif
 * to report.
 */
export interface Exiter {
  exit(code: number): never;
}

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

/** Prints a failure as one redacted line on stderr and exits non-zero. */
export async function reportError(command: Exiter, error: unknown): Promise<never> {
  const { text, usage, exitCode } = await errorLine(error);
  const lines = await problemLines(error);
  if (lines !== null) process.stderr.write(lines.map((line) => `cw: ${line}\n`).join(''));
  else process.stderr.write(`cw: ${text}\n${usage ? `${usage}\n` : ''}`);
  return command.exit(exitCode);
}

/** An error that lists several problems (a config error) prints one line for each. */
async function problemLines(error: unknown): Promise<string[] | null> {
  const problems = (error as { problems?: unknown }).problems;
  if (!Array.isArray(problems) || problems.length === 0 || !problems.every((line) => typeof line === 'string'))
    return null;
  const { terminalSafe } = await import('@cw/core');
  return problems.map((line: string) => terminalSafe(line));
}

/**
 * Like reportError, and with `json` also one JSON document on stdout (`{"error": …}`), so a script
 * that asked for JSON always gets JSON, failures included.
 */
export async function reportErrorAs(command: Exiter, error: unknown, json: boolean): Promise<never> {
  if (json) {
    const { jsonErrorDocument } = await import('./json-error.js');
    process.stdout.write(`${JSON.stringify(await jsonErrorDocument(error), null, 2)}\n`);
  }
  return reportError(command, error);
}
