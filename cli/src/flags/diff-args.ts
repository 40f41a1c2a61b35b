import { PREVIEW_DIFF_USAGE } from './usage-lines.js';
import { UsageError } from './usage-error.js';

/** Parsed `cw preview-request diff` arguments: the two saved manifests, in order, and the output form. */
export interface DiffArgs {
  json: boolean;
  files: [string, string];
}

const DIFF_NEEDS_TWO_FILES = '`diff` needs exactly two saved manifest files.';
const DIFF_UNKNOWN_FLAG =
  'Unknown flag. `diff` takes only `--json`; write a file whose name starts with `-` as `./-name`.';

/**
 * Parses the words after `diff`. `--json` may sit anywhere; any other word starting with `-` is
 * rejected rather than read as a file name, and there must be exactly two files.
 */
export function parseDiffArgs(argv: readonly string[]): DiffArgs {
  let json = false;
  const files: string[] = [];
  for (const word of argv) {
    if (word === '--json') json = true;
    else if (word.startsWith('-')) throw new UsageError(DIFF_UNKNOWN_FLAG, PREVIEW_DIFF_USAGE);
    else if (word === '') throw new UsageError(DIFF_NEEDS_TWO_FILES, PREVIEW_DIFF_USAGE);
    else files.push(word);
  }
  const [first, second] = files;
  if (files.length !== 2 || first === undefined || second === undefined)
    throw new UsageError(DIFF_NEEDS_TWO_FILES, PREVIEW_DIFF_USAGE);
  return { json, files: [first, second] };
}
