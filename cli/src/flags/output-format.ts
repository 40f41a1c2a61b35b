import { UsageError } from './usage-error.js';

import type { OUTPUT_FORMATS } from './flag-table.js';

export { OUTPUT_FORMATS } from './flag-table.js';

/** How `cw send` prints a turn: text for a person, one JSON document, or one JSON line per event. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * The format the words before `--prompt` ask for, read before parsing so that even a usage error is
 * printed the way the script asked (`--json` is `--output-format json`). Unknown values count as text.
 */
export function outputFormatOfWords(words: readonly string[]): OutputFormat {
  let format: OutputFormat = 'text';
  words.forEach((word, at) => {
    if (word === '--json') format = 'json';
    const value = word.startsWith('--output-format=')
      ? word.slice('--output-format='.length)
      : word === '--output-format'
        ? words[at + 1]
        : undefined;
    if (value === 'json' || value === 'stream-json') format = value;
  });
  return format;
}

/** The format the parsed flags ask for; `--json` with another `--output-format` is a usage error. */
export function outputFormatOf(
  flags: { readonly json: boolean; readonly 'output-format'?: string | undefined },
  usage: string,
): OutputFormat {
  const asked = flags['output-format'] as OutputFormat | undefined;
  if (!flags.json) return asked ?? 'text';
  if (asked !== undefined && asked !== 'json')
    throw new UsageError('`--json` is `--output-format json`; give one of them.', usage);
  return 'json';
}
