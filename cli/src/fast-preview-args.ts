import { PREVIEW_REQUEST_USAGE, splitAtPrompt, wordsBeforePrompt } from './grammar.js';
import type { PreviewLine } from './run-preview.js';
import { REASONING, TURN_FLAG_WORDS, type TurnFlagName, type TurnFlagValues, turnChoicesOf } from './turn-choices.js';

// The preview's flags read without oclif's parser, which costs as much to load as the whole budget
// for starting a preview. Only lines whose reading is beyond doubt are read here: each word before
// `--prompt` is a mode word, or one of the preview's flags spelled out whole, given once, with a
// plain value after it where it takes one. Anything else (help, `diff`, `base-prompt`, `--flag=value`,
// `-rvalue`, bundles, repeats, unknown words, a value that starts with `-`) is left to oclif, whose
// parser and error messages the command then uses.

type FlagName = 'json' | 'manifest' | 'blocking' | TurnFlagName;

// A Map, not an object literal, so words like `__proto__` cannot match.
const FLAGS: ReadonlyMap<string, { readonly name: FlagName; readonly takesValue: boolean }> = new Map<
  string,
  { readonly name: FlagName; readonly takesValue: boolean }
>([
  ['--json', { name: 'json', takesValue: false }],
  ['--manifest', { name: 'manifest', takesValue: false }],
  ['--blocking', { name: 'blocking', takesValue: false }],
  ...TURN_FLAG_WORDS,
]);

// The bare words the preview's grammar reads before `--prompt` (previewOutputOf); `base-prompt` is
// not among them, so oclif keeps that mode.
const MODE_WORDS = new Set(['json', 'manifest', 'prompt']);

/**
 * The words after `cw preview-request` read as the command's flag parser reads them, for a line this
 * reader is sure of; undefined for any other line. `parse` finishes the reading with the same grammar
 * and checks the command uses (the terminal `--prompt`, one session choice), which may throw their
 * UsageErrors.
 */
export function fastPreviewArgs(argv: readonly string[]): { readonly parse: () => PreviewLine } | undefined {
  let before = wordsBeforePrompt(argv);
  // The `--` fence right before --prompt is grammar (splitAtPrompt drops it); anywhere else oclif reads it.
  if (before.length < argv.length && before.at(-1) === '--') before = before.slice(0, -1);
  const order: { flag?: string; word?: string }[] = [];
  const values: Partial<Record<FlagName, string | true>> = {};
  for (let at = 0; at < before.length; at++) {
    const word = before[at] ?? '';
    if (MODE_WORDS.has(word)) {
      order.push({ word });
      continue;
    }
    const flag = FLAGS.get(word);
    if (flag === undefined || values[flag.name] !== undefined) return undefined;
    if (flag.takesValue) {
      const value = before[at + 1];
      if (value === undefined || value === '' || value.startsWith('-')) return undefined;
      if (flag.name === 'reasoning' && !(REASONING as readonly string[]).includes(value)) return undefined;
      values[flag.name] = value;
      at++;
    } else values[flag.name] = true;
    order.push({ flag: flag.name });
  }
  return {
    parse: () => {
      const { prompt } = splitAtPrompt(argv, PREVIEW_REQUEST_USAGE);
      const choices = turnChoicesOf(values as TurnFlagValues, PREVIEW_REQUEST_USAGE);
      return { order, prompt, choices, blocking: values.blocking === true };
    },
  };
}
