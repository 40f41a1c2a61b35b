import { UsageError } from './usage-error.js';

// The part of the command line no flag parser does: the terminal `--prompt`. Everything from it on
// is prompt text, re-joined with single spaces (a single quoted word comes through byte for byte);
// `--prompt=TEXT` means `--prompt` followed by the word TEXT (split at the first `=` only); a `--`
// right before it is the fence bin/run.js puts in so oclif leaves a `--help` inside the prompt
// alone. Messages are fixed text and never contain a word typed: it may be a secret pasted in the
// wrong place. Docs: docs/cli.md.

const PROMPT_FLAG = '--prompt';
const PROMPT_EQUALS = '--prompt=';

const UNKNOWN_ARGUMENT =
  'Unknown argument. Flags come before `--prompt`, which takes the rest of the arguments as prompt text.';
const PROMPT_NEEDS_TEXT = '`--prompt` needs text after it.';

// Blank means Unicode White_Space only, as in the redaction rules; JS `\s` differs (it includes
// U+FEFF and omits U+0085).
const ALL_WHITESPACE = /^\p{White_Space}*$/u;

/** Whether a word starts the prompt: `--prompt` or `--prompt=TEXT`. */
export function isPromptFlag(word: string): boolean {
  return word === PROMPT_FLAG || word.startsWith(PROMPT_EQUALS);
}

/** The prompt text from `--prompt …` or `--prompt=…` to the end, joined with single spaces; throws when blank. */
function promptText(fromFlag: readonly string[], usage: string): string {
  const [flag = '', ...rest] = fromFlag;
  const words = flag === PROMPT_FLAG ? rest : [flag.slice(PROMPT_EQUALS.length), ...rest];
  const prompt = words.join(' ');
  if (ALL_WHITESPACE.test(prompt)) throw new UsageError(PROMPT_NEEDS_TEXT, usage);
  return prompt;
}

/**
 * Everything from `--prompt` on is prompt text, and the `--` fence before it is syntax. `before` is
 * what a flag parser reads; a `--` left in it is an unknown argument, since oclif would read it as
 * the end of the flags.
 */
export function splitAtPrompt(
  argv: readonly string[],
  usage: string,
): { readonly before: readonly string[]; readonly prompt: string | undefined } {
  const at = argv.findIndex((word) => isPromptFlag(word));
  const end = at === -1 ? argv.length : at;
  const before = argv.slice(0, at > 0 && argv[at - 1] === '--' ? at - 1 : end);
  if (before.includes('--')) throw new UsageError(UNKNOWN_ARGUMENT, usage);
  return { before, prompt: at === -1 ? undefined : promptText(argv.slice(at), usage) };
}

/** The words that make the prompt (`--prompt=TEXT` gives TEXT as the first), or undefined without `--prompt`. */
export function promptWords(argv: readonly string[]): readonly string[] | undefined {
  const at = argv.findIndex((word) => isPromptFlag(word));
  if (at === -1) return undefined;
  const flag = argv[at] ?? '';
  const rest = argv.slice(at + 1);
  return flag === PROMPT_FLAG ? rest : [flag.slice(PROMPT_EQUALS.length), ...rest];
}

/** The words before `--prompt` (all of them when there is none), for checks made before parsing. */
export function wordsBeforePrompt(argv: readonly string[]): readonly string[] {
  const at = argv.findIndex((word) => isPromptFlag(word));
  return at === -1 ? argv : argv.slice(0, at);
}
