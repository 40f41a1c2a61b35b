import type { PluginProblem } from '@cw/core';

/** Warns, on stderr and redacted, about plugins that did not load; the command itself goes on. */
export async function renderPluginProblems(problems: readonly PluginProblem[]): Promise<void> {
  if (problems.length === 0) return;
  const { safeErrorText, safePackageName } = await import('@cw/core');
  for (const problem of problems) {
    const rowProblem = problem.code === 'invalid-row' || problem.code === 'duplicate-route';
    const what = rowProblem ? 'had a route row rejected' : 'did not load';
    process.stderr.write(
      `cw: warning: plugin ${safePackageName(problem.plugin)} ${what} (${problem.code}): ${safeErrorText(problem.detail)}\n`,
    );
  }
}
