import { Flags, type Command, type Interfaces } from '@oclif/core';
import { UsageError, splitAtPrompt } from './grammar.js';
import { OUTPUT_FORMATS } from './output-format.js';
import { REASONING, type TurnChoices, turnChoicesOf } from './turn-choices.js';

export type { TurnChoices } from './turn-choices.js';
export { sendLoopValues } from './send-loop-values.js';

// The flags `cw send` and `cw preview-request` share, declared for oclif: shown in help, completed by
// the shell, parsed and validated by oclif. Only what oclif cannot do stays in grammar.ts: the
// terminal `--prompt` and the preview's bare mode words. Docs: docs/cli.md.

/** Flags that pick the route, model, reasoning and session of one command, over config. */
export const turnFlags = {
  route: Flags.string({ char: 'r', summary: 'Route for this command (cw routes lists them), over config `route`.' }),
  model: Flags.string({
    char: 'm',
    summary: 'Model for this command, over config `model`; `route/model` selects both.',
  }),
  reasoning: Flags.option({ options: REASONING, summary: 'Reasoning for this command, over config `reasoning`.' })(),
  session: Flags.string({ char: 's', summary: 'Session of this workspace to use (created by its first turn).' }),
  new: Flags.boolean({
    char: 'n',
    summary: 'Start a fresh session (named s1, s2, …); preview shows an empty history.',
  }),
  continue: Flags.boolean({ char: 'c', summary: "Continue the workspace's most recently used session." }),
  prompt: Flags.string({
    summary: 'Prompt text: everything after it, bytes kept. `-` reads it from stdin. Must come last.',
  }),
};

/** `--json`, `--blocking` and the send loop's flags, declared for help; values are checked by grammar.ts. */
export const sendFlags = {
  json: Flags.boolean({ summary: 'Print one JSON document (the reply, or {"error": …}); `--output-format json`.' }),
  'output-format': Flags.option({
    options: OUTPUT_FORMATS,
    summary: 'text (streamed for a person), json (one document at the end) or stream-json (one JSON line per event).',
  })(),
  blocking: Flags.boolean({ summary: 'Use the blocking entry point instead of streaming.' }),
  'max-retries': Flags.string({ summary: 'Retries before any reply byte (0-10, default 2).', helpValue: '<0-10>' }),
  'max-steps': Flags.string({ summary: 'Model requests in the agent loop (1-200, default 25).', helpValue: '<1-200>' }),
  approval: Flags.string({
    summary: 'What tool calls may do: never, read-only, workspace, ask.',
    helpValue: '<posture>',
  }),
  'no-tool-runs': Flags.boolean({
    summary: 'One request: the tools are offered, and any calls are handed back, not run (as --approval never).',
  }),
  // The old name: it read as "offer no tools", which it never did. Still accepted, with a warning.
  'no-tools': Flags.boolean({ hidden: true, summary: 'Old name of --no-tool-runs.' }),
  'mcp-prompt': Flags.string({
    summary: "Run an MCP server's prompt as this turn's prompt, instead of --prompt (cw mcp prompts lists them).",
    helpValue: '<server/name>',
  }),
  arg: Flags.string({
    summary: 'One argument of --mcp-prompt, name=value; repeat for each.',
    helpValue: '<name=value>',
    multiple: true,
  }),
  sandbox: Flags.option({
    options: ['off', 'on', 'required'] as const,
    summary: 'Where commands run: on (sandboxed when possible, else asked), required, off; over config `sandbox.mode`.',
  })(),
};

/** A parsed command line: oclif's flags, the words that were not flags, in order, and the prompt. */
export interface CommandLine<F> {
  readonly flags: F;
  /** Tokens in the order given: flags by name, other words as written. */
  readonly order: readonly { readonly flag?: string; readonly word?: string }[];
  readonly prompt: string | undefined;
  readonly choices: TurnChoices;
}

/**
 * Parses a command line: the terminal `--prompt` first (grammar.ts), then oclif on the words before
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
  const choices = turnChoicesOf(parsed.flags as Partial<Record<keyof typeof turnFlags, unknown>>, usage);
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
