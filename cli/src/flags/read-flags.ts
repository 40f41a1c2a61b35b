import { FLAG_TABLE, type FlagCommand, type FlagEntry, flagOfWord } from './flag-table.js';

// The fast path's flag reader, made from the flag table: it reads a command's flags without oclif,
// whose parser costs more to load than the rest of a start-up (docs/performance.md). It reads only
// lines whose reading is beyond doubt: each word is one of the command's flags spelled out whole,
// given once, with a plain value after it where it takes one, and a value oclif would accept where
// it takes one of a list. Anything else (help, `--flag=value`, `-rvalue`, bundles, repeats, a flag
// given more than once by design, unknown words, a value that starts with `-`) is left to oclif,
// whose parser and error messages the command then uses.

/** The flags a reader found, by long name, and the order of flags and bare words as typed. */
export interface ReadFlags {
  readonly values: Readonly<Record<string, string | true>>;
  readonly order: readonly { readonly flag?: string; readonly word?: string }[];
}

/**
 * Reads `words` (the words before any `--prompt`) as `command`'s flags; `bareWords` are the
 * positional words the command itself reads (the preview's mode words). Undefined when oclif must
 * read the line.
 */
export function readFlags(
  words: readonly string[],
  command: FlagCommand,
  options: { readonly bareWords?: ReadonlySet<string>; readonly table?: readonly FlagEntry[] } = {},
): ReadFlags | undefined {
  const table = options.table ?? FLAG_TABLE;
  // A null prototype, so words like `__proto__` cannot match a key already there.
  const values: Record<string, string | true> = Object.create(null);
  const order: { flag?: string; word?: string }[] = [];
  for (let at = 0; at < words.length; at++) {
    const word = words[at] ?? '';
    if (options.bareWords?.has(word)) {
      order.push({ word });
      continue;
    }
    const flag = flagOfWord(word, command, table);
    if (flag === undefined || flag.multiple || flag.name === 'prompt' || values[flag.name] !== undefined)
      return undefined;
    if (flag.value === undefined) values[flag.name] = true;
    else {
      const value = words[at + 1];
      if (value === undefined || value === '' || value.startsWith('-')) return undefined;
      if (flag.value.options !== undefined && !flag.value.options.includes(value)) return undefined;
      values[flag.name] = value;
      at++;
    }
    order.push({ flag: flag.name });
  }
  return { values: { ...values }, order };
}
