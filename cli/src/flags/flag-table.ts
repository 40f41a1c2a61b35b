// Every flag of the commands that take a turn, declared once. oclif's flags (oclif-flags.ts), the
// oclif-free reader of the fast path (read-flags.ts), the trailing-flag warning
// (prompt-flag-warning.ts), the usage lines (usage-lines.ts) and `cw`'s own start flags
// (start-line.ts) are all made from this list, so a flag added here reaches every one of them.
// Plain data: the fast path reads it without loading oclif (docs/performance.md). Docs: docs/cli.md.

/** A command that reads its flags from the table; `start` is `cw` with no command (`cw -p`, `cw "…"`). */
export type FlagCommand = 'send' | 'preview-request' | 'chat' | 'start';

/** One flag as the table declares it. */
export interface FlagEntry {
  /** The long name, without `--`. */
  readonly name: string;
  /** The short alias, a letter; the same letter may mean another flag in other commands (`-r`). */
  readonly char?: string;
  /** Present when the flag takes a value: the word help shows for it, and the values it takes when it is a choice. */
  readonly value?: {
    readonly help: string;
    readonly options?: readonly string[];
    /** A whole number in this range, given to the send loop as `option` (flag-values.ts checks it). */
    readonly whole?: { readonly min: number; readonly max: number; readonly option: 'maxRetries' | 'maxSteps' };
  };
  /** Given more than once, each value is kept (oclif only: the fast reader leaves such lines to oclif). */
  readonly multiple?: true;
  /** Accepted but not shown in help or usage (an old name). */
  readonly hidden?: true;
  /** One line of help. */
  readonly summary: string;
  /** The commands that take the flag. Two entries of one name never share a command. */
  readonly commands: readonly FlagCommand[];
}

/** The reasoning selections `--reasoning` takes (the core's list; kept here so help loads no core). */
export const REASONING = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'auto'] as const;
/** The approval postures `--approval` takes (the core's list; kept here so parsing loads no core). */
export const POSTURES = ['never', 'read-only', 'workspace', 'ask'] as const;
/** The formats `--output-format` takes, in help order. */
export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;

const TURN: readonly FlagCommand[] = ['send', 'preview-request', 'chat', 'start'];
const HEADLESS: readonly FlagCommand[] = ['send', 'start'];

/** The flag table: help order. */
export const FLAG_TABLE: readonly FlagEntry[] = [
  {
    name: 'print',
    char: 'p',
    summary: 'Send one turn without a session screen, exactly as `cw send` (the prompt is the rest of the line).',
    commands: ['start'],
  },
  {
    name: 'route',
    char: 'r',
    value: { help: '<route>' },
    summary: 'Route for this command (cw routes lists them), over config `route`.',
    commands: ['send', 'preview-request'],
  },
  {
    name: 'route',
    value: { help: '<route>' },
    summary: 'Route for this command (cw routes lists them), over config `route`.',
    commands: ['chat', 'start'],
  },
  {
    name: 'model',
    char: 'm',
    value: { help: '<model>|<route/model>' },
    summary: 'Model for this command, over config `model`; `route/model` selects both.',
    commands: TURN,
  },
  {
    name: 'reasoning',
    value: { help: '<level>', options: REASONING },
    summary: 'Reasoning for this command, over config `reasoning`.',
    commands: TURN,
  },
  {
    name: 'session',
    char: 's',
    value: { help: '<name>' },
    summary: 'Session of this workspace to use (created by its first turn).',
    commands: TURN,
  },
  {
    name: 'new',
    char: 'n',
    summary: 'Start a fresh session (named s1, s2, …); preview shows an empty history.',
    commands: TURN,
  },
  {
    name: 'continue',
    char: 'c',
    summary: "Continue the workspace's most recently used session.",
    commands: TURN,
  },
  {
    name: 'resume',
    char: 'r',
    value: { help: '[<name>]' },
    summary: 'Resume a session of this workspace by name; without one, pick it from a list (on a terminal).',
    commands: ['chat', 'start'],
  },
  {
    name: 'json',
    summary: 'Print the JSON manifest (the same as the word `json`).',
    commands: ['preview-request'],
  },
  {
    name: 'manifest',
    summary: 'Print the manifest as a table (the default; the same as `manifest`).',
    commands: ['preview-request'],
  },
  {
    name: 'base-prompt',
    summary: 'Print exactly the bundled base prompt, nothing else.',
    commands: ['preview-request'],
  },
  {
    name: 'blocking',
    summary: 'Describe the blocking entry point instead of streaming.',
    commands: ['preview-request'],
  },
  {
    name: 'json',
    summary: 'Print one JSON document (the reply, or {"error": …}); `--output-format json`.',
    commands: HEADLESS,
  },
  {
    name: 'output-format',
    value: { help: '<format>', options: OUTPUT_FORMATS },
    summary: 'text (streamed for a person), json (one document at the end) or stream-json (one JSON line per event).',
    commands: HEADLESS,
  },
  {
    name: 'blocking',
    summary: 'Use the blocking entry point instead of streaming.',
    commands: HEADLESS,
  },
  {
    name: 'max-retries',
    value: { help: '<0-10>', whole: { min: 0, max: 10, option: 'maxRetries' } },
    summary: 'Retries before any reply byte (0-10, default 2).',
    commands: HEADLESS,
  },
  {
    name: 'max-steps',
    value: { help: '<1-200>', whole: { min: 1, max: 200, option: 'maxSteps' } },
    summary: 'Model requests in the agent loop (1-200, default 25).',
    commands: HEADLESS,
  },
  {
    name: 'approval',
    value: { help: '<posture>' },
    summary: 'What tool calls may do: never, read-only, workspace, ask.',
    commands: ['send', 'chat', 'start'],
  },
  {
    name: 'no-tool-runs',
    summary: 'One request: the tools are offered, and any calls are handed back, not run (as --approval never).',
    commands: HEADLESS,
  },
  // The old name: it read as "offer no tools", which it never did. Still accepted, with a warning.
  { name: 'no-tools', hidden: true, summary: 'Old name of --no-tool-runs.', commands: HEADLESS },
  {
    name: 'mcp-prompt',
    value: { help: '<server/name>' },
    summary: "Run an MCP server's prompt as this turn's prompt, instead of --prompt (cw mcp prompts lists them).",
    commands: HEADLESS,
  },
  {
    name: 'arg',
    value: { help: '<name=value>' },
    multiple: true,
    summary: 'One argument of --mcp-prompt, name=value; repeat for each.',
    commands: HEADLESS,
  },
  {
    name: 'sandbox',
    value: { help: '<mode>', options: ['off', 'on', 'required'] },
    summary: 'Where commands run: on (sandboxed when possible, else asked), required, off; over config `sandbox.mode`.',
    commands: HEADLESS,
  },
  {
    name: 'prompt',
    value: { help: '<text>|-' },
    summary: 'Prompt text: everything after it, bytes kept. `-` reads it from stdin. Must come last.',
    commands: ['send', 'preview-request', 'chat', 'start'],
  },
  { name: 'help', char: 'h', summary: 'Show help.', commands: ['start'] },
  { name: 'version', char: 'v', summary: 'Show the version line.', commands: ['start'] },
];

/** The entries of one command, in table order. */
export function flagsOf(command: FlagCommand, table: readonly FlagEntry[] = FLAG_TABLE): readonly FlagEntry[] {
  return table.filter((entry) => entry.commands.includes(command));
}

/** The flag a word spells out whole for a command (`--name` or `-c`), or undefined. */
export function flagOfWord(
  word: string,
  command: FlagCommand,
  table: readonly FlagEntry[] = FLAG_TABLE,
): FlagEntry | undefined {
  return flagsOf(command, table).find(
    (entry) => word === `--${entry.name}` || (entry.char !== undefined && word === `-${entry.char}`),
  );
}
