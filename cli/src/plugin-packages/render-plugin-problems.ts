import type { PluginProblem } from '@cw/core';

// What each problem means for the plugin: only some keep it from loading at all.
const CONSEQUENCE: Readonly<Record<PluginProblem['code'], string>> = {
  'missing-cw-field': 'did not load',
  'api-version-mismatch': 'did not load',
  'import-failed': 'did not load',
  'no-register-export': 'did not load',
  'register-threw': 'did not load',
  'invalid-row': 'had a route row rejected',
  'duplicate-route': 'had a route row rejected',
  'invalid-dialect': 'had a dialect rejected',
  'duplicate-dialect': 'had a dialect rejected',
  'invalid-refiner': 'had a body refiner rejected',
  'invalid-tool': 'had a tool rejected',
  'duplicate-tool': 'had a tool rejected',
  'invalid-notice-kind': 'had a notice kind rejected',
  'invalid-gate-reason': 'had a gate reason rejected',
  'wrote-output': 'wrote output while loading, which cw discarded',
};

/** Warns, on stderr and redacted, about plugin load problems; the command itself goes on. */
export async function renderPluginProblems(problems: readonly PluginProblem[]): Promise<void> {
  if (problems.length === 0) return;
  const { safeErrorText, safePackageName } = await import('@cw/core');
  for (const problem of problems) {
    const what = CONSEQUENCE[problem.code];
    process.stderr.write(
      `cw: warning: plugin ${safePackageName(problem.plugin)} ${what} (${problem.code}): ${safeErrorText(problem.detail)}\n`,
    );
  }
}
