import { readFlags } from './read-flags.js';
import { splitAtPrompt, wordsBeforePrompt } from './prompt-words.js';
import { SEND_USAGE } from './usage-lines.js';
import type { SendFlags, SendLine } from '../run/run-send.js';
import { type TurnFlagValues, turnChoicesOf } from './turn-choices.js';

// The send's flags read without oclif's parser, which costs more to load than the rest of a send's
// start-up (docs/performance.md). The flags are the table's (flags/flag-table.ts), read by its
// reader (flags/read-flags.ts), which leaves any line it is not sure of to oclif.

/**
 * The words after `cw send` read as the command's flag parser reads them, for a line this reader is
 * sure of; undefined for any other line. `parse` finishes the reading with the same grammar and checks
 * the command uses (the terminal `--prompt`, one session choice), which may throw their UsageErrors.
 */
export function fastSendArgs(argv: readonly string[]): { readonly parse: () => SendLine } | undefined {
  let before = wordsBeforePrompt(argv);
  // The `--` fence right before --prompt is grammar (splitAtPrompt drops it); anywhere else oclif reads it.
  if (before.length < argv.length && before.at(-1) === '--') before = before.slice(0, -1);
  const read = readFlags(before, 'send');
  if (read === undefined) return undefined;
  return {
    parse: () => {
      const { prompt } = splitAtPrompt(argv, SEND_USAGE);
      const choices = turnChoicesOf(read.values as TurnFlagValues, SEND_USAGE);
      return { flags: read.values as SendFlags, prompt, choices };
    },
  };
}
