import { FLAG_TABLE, type FlagEntry } from './flag-table.js';
import { promptWords } from './prompt-words.js';

// cw's flags as someone may type them after `--prompt`, where the grammar reads them as prompt text
// (docs/cli.md). Only the flag table's own spellings: the warning names the flag, so it never echoes
// a word typed. The start flags (`-p`, `-h`, `-v`) and `--prompt` itself are not turn flags.
const NOT_TURN_FLAGS: ReadonlySet<string> = new Set(['prompt', 'print', 'help', 'version']);

function spellings(table: readonly FlagEntry[], takesValue: boolean): ReadonlySet<string> {
  return new Set(
    table
      .filter((entry) => !NOT_TURN_FLAGS.has(entry.name) && (entry.value !== undefined) === takesValue)
      .flatMap((entry) => [`--${entry.name}`, ...(entry.char === undefined ? [] : [`-${entry.char}`])]),
  );
}

/**
 * The cw flag the prompt's words end with (`… -r zai`, `… --reasoning high`, `… --json`,
 * `… --route=zai`), or null. Only separate words count: a flag inside one quoted prompt word is
 * what its author meant to write.
 */
export function trailingFlag(argv: readonly string[], table: readonly FlagEntry[] = FLAG_TABLE): string | null {
  const valueFlags = spellings(table, true);
  const switchFlags = spellings(table, false);
  const words = promptWords(argv) ?? [];
  const last = words.at(-1);
  if (last === undefined) return null;
  if (switchFlags.has(last)) return last;
  const named = last.split('=')[0] ?? '';
  if (last.includes('=') && named.startsWith('--') && valueFlags.has(named)) return named;
  const beforeLast = words.at(-2);
  return beforeLast !== undefined && valueFlags.has(beforeLast) ? beforeLast : null;
}

/** The warning line `cw preview-request` and `cw send` print when the prompt ends with a cw flag; null when it does not. */
export function trailingFlagWarning(argv: readonly string[], table: readonly FlagEntry[] = FLAG_TABLE): string | null {
  const flag = trailingFlag(argv, table);
  if (flag === null) return null;
  return `warning: ${flag} at the end of the prompt was read as prompt text, not as a flag; flags go before --prompt`;
}
