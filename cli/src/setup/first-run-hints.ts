// What a person meets first when cw cannot reach a model: the route's key variable is unset. The one
// error line says which variable; these lines say what else they can do (docs/cli.md, "First run").
// They are cw's own words, the same for the oclif commands and the fast path (report-error.ts).

/** The lines printed after a missing key's error line. */
export const FIRST_RUN_HINTS: readonly string[] = [
  'other routes: cw routes lists them; use one with --route <id>, or make it the default with cw config set route <id>',
  'a local OpenAI-compatible server: cw routes add local --preset ollama (or llama-cpp, vllm, lm-studio), or cw routes add <id> --base-url <url> --model <model>',
];

/** The hint lines that follow an error's line; none for most errors. */
export function hintsFor(error: unknown): readonly string[] {
  return error instanceof Error && error.name === 'MissingApiKeyError' ? FIRST_RUN_HINTS : [];
}
