import { createRequire } from 'node:module';
import { cwPaths } from '@cw/core/home';
import { CLI_ROOT } from '../package-folder.js';
import { stdinIsData } from '../flags/stdin-prompt.js';
import { unreadableDataDirLine } from './check-data-dir.js';
import { fastChat } from './fast-chat.js';
import { fastEntries } from './load-fast-entry.js';
import { isPromptWord, readStartLine } from './start-line.js';
import type { StartSession } from './start-line.js';

// Everything bin/run.js does after `--version`: pick the entry a command line starts through. The
// build bundles this module and what it imports statically into one small CommonJS file
// (dist/launch.cjs), which bin/run.js, itself CommonJS, requires: a CommonJS start never sets up
// Node's ES module loader, and a preview or a send never needs it (docs/performance.md, "Every entry").
// The chat entry is built in too (it only picks its bundle); acp and oclif, which only their own
// lines reach, are loaded with import() when they are.

/** Prints one line on stderr and exits with `code`. */
function stop(line: string, code: number): never {
  process.stderr.write(line);
  process.exit(code);
}

/** Runs the command line `argv` (the words after `cw`); `printVersion` answers `cw -v` met on a start line. */
export async function launch(argv: readonly string[], printVersion: () => void): Promise<void> {
  let args = [...argv];
  // Asked of the descriptors, and only by the lines that depend on it: making stdin's stream, or
  // loading node:tty, costs a preview time it never needs them for.
  const terminal = (): boolean => {
    const { isatty } = createRequire(import.meta.url)('node:tty') as typeof import('node:tty');
    return isatty(0) && isatty(1);
  };
  // `cw` alone on a terminal opens the interactive session (docs/cli.md, "cw chat"); off a terminal
  // (a script, a pipe) it prints help as before.
  if (args.length === 0 && terminal()) args.push('chat');
  // oclif's plugin data lives in the cw home too (docs/config.md); oclif reads CW_DATA_DIR itself.
  if (!process.env['CW_DATA_DIR']?.trim()) process.env['CW_DATA_DIR'] = cwPaths().plugins;
  const unreadable = unreadableDataDirLine(process.env['CW_DATA_DIR']);
  if (unreadable !== null) stop(unreadable, 1);

  // `cw` with flags or a prompt and no command (`cw -p "…"`, `cw "…"`, `cw -c`, `cw -h`) becomes the
  // line of the command that runs it: `cw send` headless, `cw chat` on a terminal (start-line.ts,
  // docs/cli.md "Starting cw"). `--help` alone stays oclif's.
  const first = args[0] ?? '';
  let startSession: StartSession | undefined;
  if ((first.startsWith('-') && first !== '--help') || isPromptWord(first)) {
    const line = readStartLine(args, terminal());
    if (line.kind === 'usage') stop(`cw: ${line.message}\n`, 2);
    else if (line.kind === 'version') {
      printVersion();
      process.exit(0);
    } else if (line.kind === 'help') args = ['--help'];
    else if (line.kind === 'session') args = ['chat', ...line.argv];
    else {
      if (!line.prompted && !stdinIsData()) stop('cw: cw -p needs a prompt: cw -p "<prompt>", or pipe it in.\n', 2);
      args = ['send', ...line.argv];
      startSession = line.session;
    }
  }

  // A preview or a send starts without oclif when the line and the plugins allow it (fast-preview.ts,
  // fast-send.ts); each declines, having printed nothing, whenever only oclif can do exactly what the
  // command does. CW_NO_FAST_PATH (any value) always leaves it to oclif (docs/performance.md). Both
  // come from one bundled file compiled from its code cache (load-fast-entry.ts).
  const fastPath = !process.env['CW_NO_FAST_PATH'];
  const preview = ['preview-request', 'dryrun', 'preview_request'].includes(args[0] ?? '');
  const send = args[0] === 'send';
  const entries = fastPath && (preview || send) ? await fastEntries(args[0]) : undefined;

  // `cw -p -c` and `cw -p -r <name>` need that session to exist: one line and exit 2 when it does not.
  if (startSession !== undefined && startSession.kind !== 'none') {
    const { startSessionProblem } = await import('../run/start-session.js');
    const problem = await startSessionProblem(startSession);
    if (problem !== null) stop(`cw: ${problem}\n`, 2);
  }

  // `cw acp` alone and `cw chat` start without oclif too, but outside the preview's bundle: the
  // protocol SDK and the session code would make every preview pay for them (fast-acp.ts, fast-chat.ts).
  let done: boolean;
  if (fastPath && args[0] === 'acp' && args.length === 1) done = await (await import('./fast-acp.js')).fastAcp([]);
  else if (fastPath && args[0] === 'chat') done = await fastChat(args.slice(1));
  else if (entries !== undefined)
    done = preview ? await entries.fastPreview(args.slice(1)) : await entries.fastSend(args.slice(1));
  else done = false;
  if (done) return;

  const { execute, settings } = await import('@oclif/core');
  // Compiled JavaScript only: skip oclif's TypeScript probing, which costs start-up time.
  settings.enableAutoTranspile = false;
  // oclif answers `--help` anywhere before a `--`, but after --prompt it is prompt text: fence the
  // prompt with `--` (the grammar accepts one right before --prompt) so the command receives it.
  const promptAt = args.findIndex((arg) => arg === '--prompt' || arg.startsWith('--prompt='));
  if (promptAt > 0 && args.slice(promptAt + 1).includes('--help') && args[promptAt - 1] !== '--')
    args.splice(promptAt, 0, '--');
  await execute({ args, dir: CLI_ROOT });
}
