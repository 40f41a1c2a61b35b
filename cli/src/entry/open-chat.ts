import { fastRuntimeSource } from './fast-runtime-source.js';
import { readFlags } from '../flags/read-flags.js';
import { splitAtPrompt, wordsBeforePrompt } from '../flags/prompt-words.js';
import { CHAT_USAGE } from '../flags/usage-lines.js';
import { type TurnFlagValues, turnChoicesOf } from '../flags/turn-choices.js';
import { takeBareResume } from './start-line.js';

// `cw chat` (and `cw`, `cw "…"`, `cw -c` on a terminal) without oclif: a person waits for the
// prompt, and loading oclif and its plugin discovery was most of that wait (docs/performance.md,
// "Every entry"). fast-chat.ts calls this from the chat bundle (scripts/bundle-cli.mjs); it reads
// the flags with the flag table's reader (flags/read-flags.ts) and finds the plugins the way the send
// entry does (fast-runtime-source.ts), then runs the very body the command runs (run/run-chat.ts).
// Whatever it is not sure it reproduces exactly (help, an unusual spelling of a flag, no terminal,
// plugins only oclif can find) it declines, having printed nothing.

/** Runs `cw chat <argv>` when this entry can do exactly what the command would; false, having done nothing, when oclif must. */
export async function openChat(argv: readonly string[]): Promise<boolean> {
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) return false;
  const bare = takeBareResume(argv);
  let before = wordsBeforePrompt(bare.argv);
  // The `--` fence right before --prompt is grammar (splitAtPrompt drops it); anywhere else oclif reads it.
  if (before.length < bare.argv.length && before.at(-1) === '--') before = before.slice(0, -1);
  const read = readFlags(before, 'chat');
  if (read === undefined) return false;
  const source = fastRuntimeSource();
  if (source === undefined) return false;
  const exiter = { exit: (code: number): never => process.exit(code) };
  try {
    const { prompt } = splitAtPrompt(bare.argv, CHAT_USAGE);
    const choices = turnChoicesOf(read.values as TurnFlagValues, CHAT_USAGE);
    const { runChat } = await import('../run/run-chat.js');
    await runChat({ flags: read.values, prompt, choices, pick: bare.pick }, () => source, exiter);
  } catch (error) {
    const { reportError } = await import('../render/report-error.js');
    await reportError(exiter, error);
  }
  return true;
}
