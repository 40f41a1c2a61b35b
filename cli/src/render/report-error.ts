/**
 * What reporting a failure needs from its command: a way to end with an exit code. An oclif Command
 * is one; the oclif-free preview entry (fast-preview.ts) passes its own, so neither path loads oclif
 * to report.
 */
export interface Exiter {
  exit(code: number): never;
}

/** Prints a failure as one redacted line on stderr (and, for a missing key, what else to do) and exits non-zero. */
export async function reportError(command: Exiter, error: unknown): Promise<never> {
  // Loaded here, not at the top: the preview path imports this module and must not load more when nothing fails.
  const { errorLine } = await import('./error-line.js');
  const { text, usage, exitCode } = await errorLine(error);
  const lines = await problemLines(error);
  if (lines !== null) process.stderr.write(lines.map((line) => `cw: ${line}\n`).join(''));
  else process.stderr.write(`cw: ${text}\n${usage ? `${usage}\n` : ''}`);
  const { hintsFor } = await import('../setup/first-run-hints.js');
  for (const hint of hintsFor(error)) process.stderr.write(`cw: ${hint}\n`);
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
