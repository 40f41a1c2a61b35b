import { promptWords } from './grammar.js';

// cw's flags as someone may type them after `--prompt`, where the grammar reads them as prompt text
// (docs/cli.md). Only cw's own spellings: the warning names the flag, so it never echoes a word typed.
const VALUE_FLAGS: ReadonlySet<string> = new Set([
  '-r',
  '--route',
  '-m',
  '--model',
  '--reasoning',
  '-s',
  '--session',
  '--max-retries',
  '--max-steps',
  '--approval',
]);
const SWITCH_FLAGS: ReadonlySet<string> = new Set([
  '-n',
  '--new',
  '-c',
  '--continue',
  '--json',
  '--manifest',
  '--blocking',
  '--no-tool-runs',
  '--no-tools',
]);

/**
 * The cw flag the prompt's words end with (`… -r zai`, `… --reasoning high`, `… --json`,
 * `… --route=zai`), or null. Only separate words count: a flag inside one quoted prompt word is
 * what its author meant to write.
 */
export function trailingFlag(argv: readonly string[]): string | null {
  const words = promptWords(argv) ?? [];
  const last = words.at(-1);
  if (last === undefined) return null;
  if (SWITCH_FLAGS.has(last)) return last;
  const named = last.split('=')[0] ?? '';
  if (last.includes('=') && named.startsWith('--') && VALUE_FLAGS.has(named)) return named;
  const beforeLast = words.at(-2);
  return beforeLast !== undefined && VALUE_FLAGS.has(beforeLast) ? beforeLast : null;
}

/** The warning line `cw preview-request` and `cw send` print when the prompt ends with a cw flag; null when it does not. */
export function trailingFlagWarning(argv: readonly string[]): string | null {
  const flag = trailingFlag(argv);
  if (flag === null) return null;
  return `warning: ${flag} at the end of the prompt was read as prompt text, not as a flag; flags go before --prompt`;
}
