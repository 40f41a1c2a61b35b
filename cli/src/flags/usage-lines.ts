import { FLAG_TABLE, type FlagCommand, type FlagEntry, flagsOf } from './flag-table.js';
import { UsageError } from './usage-error.js';

// The usage lines: the short ones a usage error ends with, and the full ones help shows, made from
// the flag table so a flag added there is listed here too.

/** Usage line for `cw preview-request`. */
export const PREVIEW_REQUEST_USAGE =
  'Usage: cw preview-request [json|manifest] [flags] [--prompt <text>|-] | base-prompt  (flags first; --prompt takes the rest; see --help)';

/** Usage line for `cw send`. */
export const SEND_USAGE =
  'Usage: cw send [flags] [--prompt <text>|-]  (flags first; --prompt takes the rest; see cw send --help)';

/** Usage line for `cw preview-request diff`. */
export const PREVIEW_DIFF_USAGE = 'Usage: cw preview-request diff <A.json> <B.json> [--json]';

/** Usage line for `cw chat`. */
export const CHAT_USAGE = 'Usage: cw chat [flags]  (see cw chat --help)';

/** Usage line for `cw` with no command. */
export const START_USAGE = 'Usage: cw [flags] ["<prompt>"] | cw -p [flags] <prompt…> | cw <command>  (see cw --help)';

/** The error `cw send` gives without `--prompt` on a session that is not waiting to continue. */
export function promptRequired(): UsageError {
  return new UsageError('`--prompt <text>` is required.', SEND_USAGE);
}

/**
 * The flags of a command as help's usage line lists them (`[-r <route>] [--json] …`), in table
 * order; `--prompt` last, since it takes the rest of the line.
 */
export function usageFlags(command: FlagCommand, table: readonly FlagEntry[] = FLAG_TABLE): string {
  const shown = flagsOf(command, table).filter(
    (entry) => !entry.hidden && entry.name !== 'help' && entry.name !== 'version',
  );
  const prompt = shown.filter((entry) => entry.name === 'prompt');
  return [...shown.filter((entry) => entry.name !== 'prompt'), ...prompt].map(usageWord).join(' ');
}

function usageWord(entry: FlagEntry): string {
  const name = entry.char === undefined ? `--${entry.name}` : `-${entry.char}`;
  if (entry.value === undefined) return `[${name}]`;
  const value = entry.value.options === undefined ? entry.value.help : entry.value.options.join('|');
  return `[${name} ${value}]${entry.multiple ? '...' : ''}`;
}
