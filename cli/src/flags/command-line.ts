import type { Command, Interfaces } from '@oclif/core';
import { splitAtPrompt } from './prompt-words.js';
import { UsageError } from './usage-error.js';
import { type TurnChoices, type TurnFlagValues, turnChoicesOf } from './turn-choices.js';

export type { TurnChoices } from './turn-choices.js';
export { sendLoopValues } from './send-loop-values.js';

// The command line of `cw send`, `cw preview-request` and `cw chat` as oclif reads it: the flags are
// the table's (flags/flag-table.ts, made into oclif's by flags/oclif-flags.ts), shown in help,
// completed by the shell, parsed and validated by oclif. What oclif cannot do stays in flags/: the
// terminal `--prompt` and the preview's bare mode words. Docs: docs/cli.md.

/** A parsed command line: oclif's flags, the words that were not flags, in order, and the prompt. */
export interface CommandLine<F> {
  readonly flags: F;
  /** Tokens in the order given: flags by name, other words as written. */
  readonly order: readonly { readonly flag?: string; readonly word?: string }[];
  readonly prompt: string | undefined;
  readonly choices: TurnChoices;
}

/**
 * Parses a command line: the terminal `--prompt` first (flags/prompt-words.ts), then oclif on the words before
 * it. Every oclif parse error becomes a UsageError (exit 2) that names the offending flag through
 * the redactor; a bare word is never echoed, since it is most often prompt text typed without
 * `--prompt`.
 */
export async function parseCommandLine<F extends Record<string, unknown>>(
  command: Command,
  definition: { flags: Interfaces.FlagInput; strict?: boolean; args?: Interfaces.ArgInput },
  argv: readonly string[],
  usage: string,
): Promise<CommandLine<F>> {
  const { before, prompt } = splitAtPrompt(argv, usage);
  let parsed: Awaited<ReturnType<Command['parse']>>;
  try {
    parsed = await (command as unknown as { parse: Command['parse'] }).parse(
      { flags: definition.flags, args: definition.args ?? {}, strict: definition.strict ?? true },
      [...before],
    );
  } catch (error) {
    throw await usageErrorFrom(error, definition.flags, usage);
  }
  const choices = turnChoicesOf(parsed.flags as TurnFlagValues, usage);
  const order = parsed.raw.map((token) =>
    token.type === 'flag' ? { flag: (token as { flag: string }).flag } : { word: token.input },
  );
  return { flags: parsed.flags as unknown as F, order, prompt, choices };
}

/**
 * oclif's parse errors repeat what was typed (a value, a word), which may be a secret pasted in the
 * wrong place: each is rebuilt from cw's own words and the flag's name, shown only when it passes
 * the label check.
 */
async function usageErrorFrom(error: unknown, flags: Interfaces.FlagInput, usage: string): Promise<unknown> {
  if ((error as { oclif?: unknown }).oclif === undefined || !(error instanceof Error)) return error;
  const known = Object.keys(flags).map((name) => `--${name}`);
  const unknownFlags = (error as { flags?: unknown }).flags;
  if (Array.isArray(unknownFlags) && typeof unknownFlags[0] === 'string') {
    const word = await flagLabel(unknownFlags[0]);
    // Loaded here, not at the top: the commands import this module before they know they need the core.
    const { closestWord } = await import('@cw/core');
    const near = closestWord(unknownFlags[0].split('=')[0] ?? '', [...known, '--prompt']);
    return new UsageError(
      `Unknown flag ${word}.${near === undefined ? '' : ` Did you mean ${near}?`} Flags come before \`--prompt\`, which takes the rest as prompt text.`,
      usage,
    );
  }
  if (Array.isArray((error as { args?: unknown }).args))
    return new UsageError(
      'Unknown argument (not shown: it may be prompt text). Flags come before `--prompt`, which takes the rest of the arguments as prompt text.',
      usage,
    );
  const option = /^Expected --([a-z-]+)=/.exec(error.message);
  const optionFlag = option?.[1] === undefined ? undefined : flags[option[1]];
  if (option !== null && optionFlag !== undefined) {
    const options = (optionFlag as { options?: readonly string[] }).options ?? [];
    return new UsageError(`\`--${option[1]}\` takes one of ${options.join(', ')}.`, usage);
  }
  const needsValue = /^Flag --([a-z-]+) expects a value/.exec(error.message);
  if (needsValue !== null) return new UsageError(`\`--${needsValue[1]}\` needs a value.`, usage);
  const { safeErrorText } = await import('@cw/core');
  return new UsageError(safeErrorText(error.message.split('\n')[0] ?? 'bad arguments'), usage);
}

/** A flag as typed, for an error message: its name only (never a `=value`), and only when it is a plain label. */
async function flagLabel(typed: string): Promise<string> {
  const name = typed.split('=')[0] ?? '';
  const { safeIdentifier } = await import('@cw/core');
  const bare = name.replace(/^-{1,2}/, '');
  return /^-{1,2}[A-Za-z][A-Za-z0-9-]{0,39}$/.test(name) && safeIdentifier(bare) === bare
    ? `\`${name}\``
    : '(not shown: it does not look like a flag name)';
}
