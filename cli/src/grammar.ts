// Argument grammar shared by `cw preview-request` and `cw send`.
//
// The commands parse their flags with oclif (command-line.ts: declared, in help, validated); this
// module keeps what oclif cannot do — the terminal `--prompt` (splitAtPrompt), the preview's bare
// mode words and their order rules (previewOutputOf), the value checks whose messages name the flag
// — and parseArgs, the grammar as one function over the words, which the tests hold the command
// path to (command-line.test.ts).
//
// oclif hands us argv words that the shell has already split, not one raw line, so the rules are
// about words:
// - Each word before `--prompt` must equal a flag exactly. Words are never trimmed or re-split:
//   a quoted `"json "` or an empty `""` is an unknown argument, not `json` or nothing, so a
//   mistake fails loudly instead of silently changing the output mode.
// - After `--prompt`, the remaining words are re-joined with single spaces. A single word (a
//   quoted shell string) therefore comes through byte for byte, so quoting the prompt is how a
//   user keeps its white space exactly.
// - `--prompt=TEXT` is accepted and means exactly `--prompt` followed by the word `TEXT`
//   (split at the first `=` only). People write the `=` form out of habit with other CLIs, and
//   rejecting it as "unknown" would be confusing. One rule, no special cases: `--prompt= foo`
//   (two words) yields the prompt " foo", and `--prompt=` alone is the "needs text" error.
// - `--` is not special. Before `--prompt` it is an unknown argument; after it, prompt text.
//   (oclif takes over `--help` anywhere before a `--`, which happens before this parser runs.)
//
// Error messages are fixed text and never contain the offending word: it may be a secret
// pasted in the wrong place.

/** Error for bad command-line arguments; the command prints `message` to stderr and exits 2. */
export class UsageError extends Error {
  readonly exitCode = 2;

  constructor(reason: string, usage: string) {
    super(`${reason}\n${usage}`);
    this.name = 'UsageError';
  }
}

/** Usage line for `cw preview-request`. */
export const PREVIEW_REQUEST_USAGE =
  'Usage: cw preview-request [json|manifest] [flags] [--prompt <text>|-] | base-prompt  (flags first; --prompt takes the rest; see --help)';

/** Usage line for `cw send`. */
export const SEND_USAGE =
  'Usage: cw send [flags] [--prompt <text>|-]  (flags first; --prompt takes the rest; see cw send --help)';

/** A flag word a command may accept before `--prompt`. */
export type FlagWord =
  | 'json'
  | '--json'
  | 'manifest'
  | '--manifest'
  | 'prompt'
  | 'base-prompt'
  | '--base-prompt'
  | '--blocking'
  | '--max-retries'
  | '--max-steps'
  | '--approval'
  | '--no-tool-runs'
  | '--no-tools';

/** What a command accepts: its flag words and the usage line its errors end with. */
export interface Grammar {
  readonly flags: ReadonlySet<FlagWord>;
  readonly usage: string;
}

/** Grammar of `cw preview-request`: every flag. */
export const PREVIEW_REQUEST_GRAMMAR: Grammar = {
  flags: new Set<FlagWord>([
    'json',
    '--json',
    'manifest',
    '--manifest',
    'prompt',
    'base-prompt',
    '--base-prompt',
    '--blocking',
  ]),
  usage: PREVIEW_REQUEST_USAGE,
};

/** Grammar of `cw send`: `--json`, `--blocking`, `--max-retries N`, and the agent loop's `--max-steps N`, `--approval P`, `--no-tool-runs` (old name `--no-tools`). */
export const SEND_GRAMMAR: Grammar = {
  flags: new Set<FlagWord>([
    '--json',
    '--blocking',
    '--max-retries',
    '--max-steps',
    '--approval',
    '--no-tool-runs',
    '--no-tools',
  ]),
  usage: SEND_USAGE,
};

/** Result of the shared parser before a command maps it to its own shape. */
export interface ParsedArgs {
  json: boolean;
  basePromptOnly: boolean;
  blocking: boolean;
  /** `--max-retries N`, when given. */
  maxRetries: number | undefined;
  /** `--max-steps N`, when given. */
  maxSteps: number | undefined;
  /** `--approval P`, when given. */
  approval: Posture | undefined;
  /** `--no-tool-runs` (or its old name `--no-tools`): one request, the tools offered, calls handed back unrun. */
  noTools: boolean;
  prompt: string | undefined;
}

type Effect =
  | 'json'
  | 'manifest'
  | 'noop'
  | 'base-prompt'
  | 'blocking'
  | 'max-retries'
  | 'max-steps'
  | 'approval'
  | 'no-tools';

/** The approval postures `--approval` takes (the core's list; kept here so parsing loads no core). */
export const POSTURES = ['never', 'read-only', 'workspace', 'ask'] as const;
/** An approval posture. */
export type Posture = (typeof POSTURES)[number];

// A Map, not an object literal, so words like `__proto__` or `constructor` cannot match.
const EFFECTS: ReadonlyMap<FlagWord, Effect> = new Map<FlagWord, Effect>([
  ['json', 'json'],
  ['--json', 'json'],
  ['manifest', 'manifest'],
  ['--manifest', 'manifest'],
  ['prompt', 'noop'],
  ['base-prompt', 'base-prompt'],
  ['--base-prompt', 'base-prompt'],
  ['--blocking', 'blocking'],
  ['--max-retries', 'max-retries'],
  ['--max-steps', 'max-steps'],
  ['--approval', 'approval'],
  ['--no-tool-runs', 'no-tools'],
  ['--no-tools', 'no-tools'],
]);

const PROMPT_FLAG = '--prompt';
const PROMPT_EQUALS = '--prompt=';

const UNKNOWN_ARGUMENT =
  'Unknown argument. Flags come before `--prompt`, which takes the rest of the arguments as prompt text.';
const PROMPT_NEEDS_TEXT = '`--prompt` needs text after it.';
const BASE_PROMPT_WITH_JSON = '`base-prompt` cannot be combined with JSON.';
const BASE_PROMPT_WITH_PROMPT = '`base-prompt` cannot be combined with `--prompt`.';
const PROMPT_REQUIRED = '`--prompt <text>` is required.';
const MAX_RETRIES_VALUE = '`--max-retries` takes a whole number from 0 to 10.';
const MAX_RETRIES_LIMIT = 10;
const MAX_STEPS_VALUE = '`--max-steps` takes a whole number from 1 to 200.';
const MAX_STEPS_LIMIT = 200;
const APPROVAL_VALUE = '`--approval` takes one of never, read-only, workspace, ask.';

// Blank means Unicode White_Space only, as in the redaction rules; JS `\s` differs (it includes
// U+FEFF and omits U+0085).
const ALL_WHITESPACE = /^\p{White_Space}*$/u;

/** Whether a word starts the prompt: `--prompt` or `--prompt=TEXT`. */
function isPromptFlag(word: string): boolean {
  return word === PROMPT_FLAG || word.startsWith(PROMPT_EQUALS);
}

// A `--` right before --prompt is the fence bin/run.js puts in so oclif leaves a `--help` inside the
// prompt alone; a user may write it too. Anywhere else it is an unknown argument.
function isPromptFence(argv: readonly string[], at: number): boolean {
  const next = argv[at + 1];
  return argv[at] === '--' && next !== undefined && isPromptFlag(next);
}

/** The prompt text from `--prompt …` or `--prompt=…` to the end, joined with single spaces; throws when blank. */
function promptText(fromFlag: readonly string[], usage: string): string {
  const [flag = '', ...rest] = fromFlag;
  const words = flag === PROMPT_FLAG ? rest : [flag.slice(PROMPT_EQUALS.length), ...rest];
  const prompt = words.join(' ');
  if (ALL_WHITESPACE.test(prompt)) throw new UsageError(PROMPT_NEEDS_TEXT, usage);
  return prompt;
}

/**
 * The part of the grammar oclif cannot do: everything from `--prompt` on is prompt text, and the
 * `--` fence before it is syntax. `before` is what oclif parses as flags; a `--` left in it is an
 * unknown argument, since oclif would read it as the end of the flags.
 */
export function splitAtPrompt(
  argv: readonly string[],
  usage: string,
): { readonly before: readonly string[]; readonly prompt: string | undefined } {
  const at = argv.findIndex((word) => isPromptFlag(word));
  const end = at === -1 ? argv.length : at;
  const before = argv.slice(0, at > 0 && argv[at - 1] === '--' ? at - 1 : end);
  if (before.includes('--')) throw new UsageError(UNKNOWN_ARGUMENT, usage);
  return { before, prompt: at === -1 ? undefined : promptText(argv.slice(at), usage) };
}

/** The words that make the prompt (`--prompt=TEXT` gives TEXT as the first), or undefined without `--prompt`. */
export function promptWords(argv: readonly string[]): readonly string[] | undefined {
  const at = argv.findIndex((word) => isPromptFlag(word));
  if (at === -1) return undefined;
  const flag = argv[at] ?? '';
  const rest = argv.slice(at + 1);
  return flag === PROMPT_FLAG ? rest : [flag.slice(PROMPT_EQUALS.length), ...rest];
}

/** The words before `--prompt` (all of them when there is none), for checks made before parsing. */
export function wordsBeforePrompt(argv: readonly string[]): readonly string[] {
  const at = argv.findIndex((word) => isPromptFlag(word));
  return at === -1 ? argv : argv.slice(0, at);
}

/** `--max-retries N`: a whole number from 0 to 10; throws a UsageError naming the flag. */
export function maxRetriesValue(value: string | undefined, usage: string): number {
  if (value === undefined || !/^\d{1,2}$/.test(value) || Number(value) > MAX_RETRIES_LIMIT)
    throw new UsageError(MAX_RETRIES_VALUE, usage);
  return Number(value);
}

/** `--max-steps N`: a whole number from 1 to 200; throws a UsageError naming the flag. */
export function maxStepsValue(value: string | undefined, usage: string): number {
  if (value === undefined || !/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_STEPS_LIMIT)
    throw new UsageError(MAX_STEPS_VALUE, usage);
  return Number(value);
}

/** `--approval P`: one of the postures; throws a UsageError naming the flag. */
export function approvalValue(value: string | undefined, usage: string): Posture {
  const posture = POSTURES.find((known) => known === value);
  if (posture === undefined) throw new UsageError(APPROVAL_VALUE, usage);
  return posture;
}

/** Parses argv against a command's grammar; throws UsageError. */
export function parseArgs(argv: readonly string[], grammar: Grammar): ParsedArgs {
  const parsed: ParsedArgs = {
    json: false,
    basePromptOnly: false,
    blocking: false,
    maxRetries: undefined,
    maxSteps: undefined,
    approval: undefined,
    noTools: false,
    prompt: undefined,
  };

  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';

    if (isPromptFlag(word)) {
      // Checked before "needs text" so `base-prompt --prompt` names the real conflict.
      if (parsed.basePromptOnly) throw new UsageError(BASE_PROMPT_WITH_PROMPT, grammar.usage);
      parsed.prompt = promptText(argv.slice(i), grammar.usage);
      return parsed;
    }
    if (isPromptFence(argv, i)) continue;

    const effect = grammar.flags.has(word as FlagWord) ? EFFECTS.get(word as FlagWord) : undefined;
    switch (effect) {
      case 'json':
        if (parsed.basePromptOnly) throw new UsageError(BASE_PROMPT_WITH_JSON, grammar.usage);
        parsed.json = true;
        break;
      case 'manifest':
        parsed.json = false;
        break;
      case 'noop':
        break;
      case 'base-prompt':
        if (parsed.json) throw new UsageError(BASE_PROMPT_WITH_JSON, grammar.usage);
        parsed.basePromptOnly = true;
        break;
      case 'blocking':
        parsed.blocking = true;
        break;
      case 'max-retries':
        parsed.maxRetries = maxRetriesValue(argv[i + 1], grammar.usage);
        i++;
        break;
      case 'max-steps':
        parsed.maxSteps = maxStepsValue(argv[i + 1], grammar.usage);
        i++;
        break;
      case 'approval':
        parsed.approval = approvalValue(argv[i + 1], grammar.usage);
        i++;
        break;
      case 'no-tools':
        parsed.noTools = true;
        break;
      case undefined:
        throw new UsageError(UNKNOWN_ARGUMENT, grammar.usage);
    }
  }
  return parsed;
}

/**
 * The preview's output from its mode words and flags in the order given (`json`, `--json`,
 * `manifest`, `--manifest`, `base-prompt`, `--base-prompt`, and the no-op `prompt`): the last of
 * json/manifest wins, and base-prompt excludes JSON and a prompt. oclif gives the order; the rules
 * are the grammar's. Any other bare word is an unknown argument, not echoed: it is most often prompt
 * text typed without `--prompt`.
 */
export function previewOutputOf(
  order: readonly { readonly flag?: string; readonly word?: string }[],
  promptGiven: boolean,
  usage: string,
): PreviewArgs['output'] {
  let json = false;
  let basePrompt = false;
  for (const token of order) {
    const effect = token.word !== undefined ? wordEffect(token.word) : token.flag;
    if (effect === undefined) throw new UsageError(UNKNOWN_ARGUMENT, usage);
    if (effect === 'json') {
      if (basePrompt) throw new UsageError(BASE_PROMPT_WITH_JSON, usage);
      json = true;
    } else if (effect === 'manifest') json = false;
    else if (effect === 'base-prompt') {
      if (json) throw new UsageError(BASE_PROMPT_WITH_JSON, usage);
      basePrompt = true;
    }
  }
  if (basePrompt && promptGiven) throw new UsageError(BASE_PROMPT_WITH_PROMPT, usage);
  return basePrompt ? 'base-prompt' : json ? 'json' : 'table';
}

function wordEffect(word: string): string | undefined {
  if (word === 'json' || word === 'manifest' || word === 'base-prompt') return word;
  return word === 'prompt' ? 'noop' : undefined;
}

/** Parsed preview-request arguments. */
export interface PreviewArgs {
  output: 'json' | 'table' | 'base-prompt';
  entrypoint: 'streaming' | 'blocking';
  prompt: string | undefined;
}

/** Parses `cw preview-request` argv; throws UsageError. */
export function parsePreviewRequestArgs(argv: readonly string[]): PreviewArgs {
  const parsed = parseArgs(argv, PREVIEW_REQUEST_GRAMMAR);
  // base-prompt and json exclude each other in the parser, so this order loses nothing.
  const output = parsed.basePromptOnly ? 'base-prompt' : parsed.json ? 'json' : 'table';
  return { output, entrypoint: parsed.blocking ? 'blocking' : 'streaming', prompt: parsed.prompt };
}

/** Parsed send arguments. */
export interface SendArgs {
  json: boolean;
  entrypoint: 'streaming' | 'blocking';
  maxRetries: number | undefined;
  maxSteps: number | undefined;
  approval: Posture | undefined;
  noTools: boolean;
  /** Undefined continues a loop that stopped after running tools; the command checks the session awaits it. */
  prompt: string | undefined;
}

/** Parses `cw send` argv; throws UsageError. */
export function parseSendArgs(argv: readonly string[]): SendArgs {
  const parsed = parseArgs(argv, SEND_GRAMMAR);
  return {
    json: parsed.json,
    entrypoint: parsed.blocking ? 'blocking' : 'streaming',
    maxRetries: parsed.maxRetries,
    maxSteps: parsed.maxSteps,
    approval: parsed.approval,
    noTools: parsed.noTools,
    prompt: parsed.prompt,
  };
}

/** The error `cw send` gives without `--prompt` on a session that is not waiting to continue. */
export function promptRequired(): UsageError {
  return new UsageError(PROMPT_REQUIRED, SEND_USAGE);
}

/** Usage line for `cw preview-request diff`. */
export const PREVIEW_DIFF_USAGE = 'Usage: cw preview-request diff <A.json> <B.json> [--json]';

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
