import { FLAG_TABLE, type FlagEntry, flagOfWord } from '../flags/flag-table.js';
import { isPromptFlag } from '../flags/prompt-words.js';

// `cw` with no command, read as people coming from other agent CLIs type it (docs/cli.md, "Starting
// cw"): `cw -h`, `cw -v`, `cw -p "…"` (one headless turn, exactly `cw send`), `cw "…"` (the session
// with that first prompt, or headless off a terminal), `cw -c`, `cw -r [name]`. The flags are the
// table's `start` entries; this file only turns such a line into the line of the command that runs
// it, so `cw -p` is `cw send` and `cw "…"` is `cw chat`, each with its own parser and checks.
// Plain code over plain data: bin/run.js reads it before deciding whether to load oclif.

/** A word that starts `cw "…"`: it holds a character no command name has (a space, a `?`, a `.`). */
export function isPromptWord(word: string): boolean {
  return word !== '' && !word.startsWith('-') && /[^A-Za-z0-9:_-]/.test(word);
}

/** The name `-r` takes when one follows: a session name, not prompt text. */
const SESSION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;

/** How a session was asked for on the start line. */
export type StartSession =
  | { readonly kind: 'none' }
  | { readonly kind: 'continue' }
  | { readonly kind: 'resume'; readonly name: string }
  | { readonly kind: 'pick' };

/** What `cw <args>` with no command runs. */
export type StartLine =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  /** `cw -p …`: `cw send` with `argv`; `prompted` is false when no prompt was given on the line. */
  | {
      readonly kind: 'print';
      readonly argv: readonly string[];
      readonly session: StartSession;
      readonly prompted: boolean;
    }
  /** `cw …` on a terminal: `cw chat` with `argv` (its first prompt after `--prompt`, when given). */
  | {
      readonly kind: 'session';
      readonly argv: readonly string[];
      readonly session: StartSession;
      readonly prompted: boolean;
    }
  /** A line cw cannot read: one line saying what to fix (exit 2). */
  | { readonly kind: 'usage'; readonly message: string };

/**
 * Reads `args` (the words after `cw`, the first a flag or a prompt word) as a start line.
 * `terminal` says whether a person is at the keyboard: `cw "…"` off a terminal is `cw -p "…"`.
 */
export function readStartLine(
  args: readonly string[],
  terminal: boolean,
  table: readonly FlagEntry[] = FLAG_TABLE,
): StartLine {
  const passed: string[] = [];
  let print = false;
  let session: StartSession = { kind: 'none' };
  let prompt: readonly string[] | undefined;
  for (let at = 0; at < args.length; at++) {
    const word = args[at] ?? '';
    if (isPromptFlag(word) || !word.startsWith('-')) {
      // The first word that is not a flag starts the prompt; `--prompt` says so outright.
      prompt = isPromptFlag(word) ? args.slice(at) : ['--prompt', ...args.slice(at)];
      break;
    }
    const [spelled = '', inline] = word.startsWith('--') && word.includes('=') ? splitOnce(word) : [word, undefined];
    const flag = flagOfWord(spelled, 'start', table);
    if (flag === undefined) return { kind: 'usage', message: unknownFlag(spelled) };
    if (flag.name === 'help') return { kind: 'help' };
    if (flag.name === 'version') return { kind: 'version' };
    if (flag.name === 'print') {
      print = true;
      continue;
    }
    if (flag.name === 'continue' || flag.name === 'resume') {
      if (session.kind !== 'none') return { kind: 'usage', message: 'give one of -c and -r: each picks the session.' };
      if (flag.name === 'continue') session = { kind: 'continue' };
      else {
        const name = inline ?? args[at + 1];
        if (inline === undefined && name !== undefined && SESSION_NAME.test(name)) at++;
        session = name !== undefined && SESSION_NAME.test(name) ? { kind: 'resume', name } : { kind: 'pick' };
        if (inline !== undefined && session.kind === 'pick')
          return {
            kind: 'usage',
            message: 'a session name is 1 to 64 letters, digits, - or _ (cw sessions lists them).',
          };
      }
      continue;
    }
    passed.push(word);
    if (flag.value !== undefined && inline === undefined) {
      const value = args[at + 1];
      if (value === undefined) return { kind: 'usage', message: `\`--${flag.name}\` needs a value.` };
      passed.push(value);
      at++;
    }
  }
  const headless = print || (!terminal && prompt !== undefined);
  if (headless && session.kind === 'pick')
    return { kind: 'usage', message: 'cw -p -r needs a session name (cw sessions lists them).' };
  // `cw send` names a session with --session (its -r is --route); `cw chat` takes --resume itself.
  const sessionWords =
    session.kind === 'continue'
      ? ['--continue']
      : session.kind === 'resume'
        ? [headless ? '--session' : '--resume', session.name]
        : session.kind === 'pick'
          ? ['--resume']
          : [];
  const argv = [...passed, ...sessionWords, ...(prompt ?? [])];
  return { kind: headless ? 'print' : 'session', argv, session, prompted: prompt !== undefined };
}

/**
 * `-r`/`--resume` with no session name after it (the picker), taken out of a `cw chat` line so
 * oclif, whose flags either take a value or not, reads the rest.
 */
export function takeBareResume(argv: readonly string[]): { readonly argv: readonly string[]; readonly pick: boolean } {
  const at = argv.findIndex(
    (word, index) =>
      (word === '-r' || word === '--resume') &&
      !argv.slice(0, index).some(isPromptFlag) &&
      !SESSION_NAME.test(argv[index + 1] ?? ''),
  );
  return at === -1 ? { argv, pick: false } : { argv: [...argv.slice(0, at), ...argv.slice(at + 1)], pick: true };
}

function splitOnce(word: string): [string, string] {
  const at = word.indexOf('=');
  return [word.slice(0, at), word.slice(at + 1)];
}

/** The unknown flag named only when it is a plain label: a key pasted as a flag is never printed. */
function unknownFlag(spelled: string): string {
  const shown = /^-{1,2}[A-Za-z][A-Za-z0-9-]{0,39}$/.test(spelled) && !/^--?sk-/.test(spelled);
  return `Unknown flag ${shown ? `\`${spelled}\`` : '(not shown: it does not look like a flag name)'}: cw --help lists the flags.`;
}
