import { SEND_USAGE, splitAtPrompt, wordsBeforePrompt } from './grammar.js';
import { OUTPUT_FORMATS } from './output-format.js';
import type { SendFlags, SendLine } from './run-send.js';
import { REASONING, TURN_FLAG_WORDS, type TurnFlagName, type TurnFlagValues, turnChoicesOf } from './turn-choices.js';

// The send's flags read without oclif's parser, which costs more to load than the rest of a send's
// start-up (docs/performance.md). Only lines whose reading is beyond doubt are read here: each word
// before `--prompt` is one of the send's flags spelled out whole, given once, with a plain value
// after it where it takes one, and a value oclif would accept where it takes one of a list. Anything
// else (help, `--flag=value`, `-rvalue`, bundles, repeats, bare words, a value that starts with `-`)
// is left to oclif, whose parser and error messages the command then uses.

type FlagName = TurnFlagName | keyof SendFlags;

// Flags that take one of a list: a value outside it is oclif's error to word.
const OPTIONS: ReadonlyMap<FlagName, readonly string[]> = new Map<FlagName, readonly string[]>([
  ['reasoning', REASONING],
  ['output-format', OUTPUT_FORMATS],
  ['sandbox', ['off', 'on', 'required']],
]);

// A Map, not an object literal, so words like `__proto__` cannot match.
const FLAGS: ReadonlyMap<string, { readonly name: FlagName; readonly takesValue: boolean }> = new Map<
  string,
  { readonly name: FlagName; readonly takesValue: boolean }
>([
  ...TURN_FLAG_WORDS,
  ['--json', { name: 'json', takesValue: false }],
  ['--output-format', { name: 'output-format', takesValue: true }],
  ['--blocking', { name: 'blocking', takesValue: false }],
  ['--max-retries', { name: 'max-retries', takesValue: true }],
  ['--max-steps', { name: 'max-steps', takesValue: true }],
  ['--approval', { name: 'approval', takesValue: true }],
  ['--no-tool-runs', { name: 'no-tool-runs', takesValue: false }],
  ['--no-tools', { name: 'no-tools', takesValue: false }],
  ['--sandbox', { name: 'sandbox', takesValue: true }],
]);

/**
 * The words after `cw send` read as the command's flag parser reads them, for a line this reader is
 * sure of; undefined for any other line. `parse` finishes the reading with the same grammar and checks
 * the command uses (the terminal `--prompt`, one session choice), which may throw their UsageErrors.
 */
export function fastSendArgs(argv: readonly string[]): { readonly parse: () => SendLine } | undefined {
  let before = wordsBeforePrompt(argv);
  // The `--` fence right before --prompt is grammar (splitAtPrompt drops it); anywhere else oclif reads it.
  if (before.length < argv.length && before.at(-1) === '--') before = before.slice(0, -1);
  const values: Partial<Record<FlagName, string | true>> = {};
  for (let at = 0; at < before.length; at++) {
    const flag = FLAGS.get(before[at] ?? '');
    if (flag === undefined || values[flag.name] !== undefined) return undefined;
    if (!flag.takesValue) {
      values[flag.name] = true;
      continue;
    }
    const value = before[at + 1];
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    const options = OPTIONS.get(flag.name);
    if (options !== undefined && !options.includes(value)) return undefined;
    values[flag.name] = value;
    at++;
  }
  return {
    parse: () => {
      const { prompt } = splitAtPrompt(argv, SEND_USAGE);
      const choices = turnChoicesOf(values as TurnFlagValues, SEND_USAGE);
      return { flags: values as SendFlags, prompt, choices };
    },
  };
}
