import { readFlags } from './read-flags.js';
import { splitAtPrompt, wordsBeforePrompt } from './prompt-words.js';
import { PREVIEW_REQUEST_USAGE } from './usage-lines.js';
import type { PreviewLine } from '../run/run-preview.js';
import { type TurnFlagValues, turnChoicesOf } from './turn-choices.js';

// The preview's flags read without oclif's parser, which costs as much to load as the whole budget
// for starting a preview. The flags are the table's (flags/flag-table.ts), read by its reader
// (flags/read-flags.ts), which leaves any line it is not sure of to oclif: help, `diff`,
// `base-prompt`, unknown words and every spelling it does not read whole.

// The bare words the preview's grammar reads before `--prompt` (previewOutputOf); `base-prompt` is
// not among them, so oclif keeps that mode.
const MODE_WORDS: ReadonlySet<string> = new Set(['json', 'manifest', 'prompt']);

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
  const read = readFlags(before, 'preview-request', { bareWords: MODE_WORDS });
  if (read === undefined || read.values['base-prompt'] !== undefined) return undefined;
  return {
    parse: () => {
      const { prompt } = splitAtPrompt(argv, PREVIEW_REQUEST_USAGE);
      const choices = turnChoicesOf(read.values as TurnFlagValues, PREVIEW_REQUEST_USAGE);
      return { order: read.order, prompt, choices, blocking: read.values['blocking'] === true };
    },
  };
}
