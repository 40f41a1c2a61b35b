#!/usr/bin/env node
// The version line oclif would print for `--version`, answered here without loading oclif or any
// plugin: the version is in this package's package.json (docs/performance.md).
async function printVersion() {
  const { readFileSync } = await import('node:fs');
  const { arch, platform, release } = await import('node:os');
  const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const os = platform() === 'linux' && release().toLowerCase().includes('microsoft') ? 'wsl' : platform();
  process.stdout.write(
    `${pjson.name}/${pjson.version} ${os}-${arch() === 'ia32' ? 'x86' : arch()} node-${process.version}\n`,
  );
}

// Whether stdin holds data to read (a pipe or a file), as the send's prompt reader decides it.
async function stdinIsData() {
  const { fstatSync } = await import('node:fs');
  try {
    const info = fstatSync(0);
    return info.isFIFO() || info.isFile();
  } catch {
    return false;
  }
}

if (process.argv[2] === '--version' || process.argv[2] === '-v') {
  await printVersion();
} else {
  let args = process.argv.slice(2);
  const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
  // `cw` alone on a terminal opens the interactive session (docs/cli.md, "cw chat"); off a terminal
  // (a script, a pipe) it prints help as before.
  if (args.length === 0 && terminal) args.push('chat');
  const { cwPaths } = await import('@cw/core/home');
  // oclif's plugin data lives in the cw home too (docs/config.md); oclif reads CW_DATA_DIR itself.
  if (!process.env.CW_DATA_DIR?.trim()) process.env.CW_DATA_DIR = cwPaths().plugins;
  const unreadable = (await import('../dist/entry/check-data-dir.js')).unreadableDataDirLine(process.env.CW_DATA_DIR);
  if (unreadable !== null) {
    process.stderr.write(unreadable);
    process.exit(1);
  }

  // `cw` with flags or a prompt and no command (`cw -p "…"`, `cw "…"`, `cw -c`, `cw -h`) becomes the
  // line of the command that runs it: `cw send` headless, `cw chat` on a terminal
  // (cli/src/entry/start-line.ts, docs/cli.md "Starting cw"). `--help` alone stays oclif's.
  const first = args[0] ?? '';
  const start = await import('../dist/entry/start-line.js');
  let startSession;
  if ((first.startsWith('-') && first !== '--help') || start.isPromptWord(first)) {
    const line = start.readStartLine(args, terminal);
    if (line.kind === 'usage') {
      process.stderr.write(`cw: ${line.message}\n`);
      process.exit(2);
    } else if (line.kind === 'version') {
      await printVersion();
      process.exit(0);
    } else if (line.kind === 'help') args = ['--help'];
    else if (line.kind === 'session') args = ['chat', ...line.argv];
    else {
      if (!line.prompted && !(await stdinIsData())) {
        process.stderr.write('cw: cw -p needs a prompt: cw -p "<prompt>", or pipe it in.\n');
        process.exit(2);
      }
      args = ['send', ...line.argv];
      startSession = line.session;
    }
  }

  // A preview or a send starts without oclif when the line and the plugins allow it
  // (cli/src/entry/fast-preview.ts, cli/src/entry/fast-send.ts); each declines, having printed nothing, whenever
  // only oclif can do exactly what the command does. CW_NO_FAST_PATH (any value) always leaves it to
  // oclif (docs/performance.md).
  // Both come from one bundled file compiled from its code cache (cli/src/entry/load-fast-entry.ts).
  const preview = ['preview-request', 'dryrun', 'preview_request'].includes(args[0] ?? '');
  const send = args[0] === 'send';
  const fast = !process.env.CW_NO_FAST_PATH && (preview || send);
  const entries = fast ? await (await import('../dist/entry/load-fast-entry.js')).fastEntries() : undefined;

  // `cw -p -c` and `cw -p -r <name>` need that session to exist: one line and exit 2 when it does not.
  if (startSession !== undefined && startSession.kind !== 'none') {
    const { startSessionProblem } = await import('../dist/run/start-session.js');
    const problem = await startSessionProblem(startSession);
    if (problem !== null) {
      process.stderr.write(`cw: ${problem}\n`);
      process.exit(2);
    }
  }

  // `cw acp` alone serves the protocol without oclif too, but outside the bundle: the protocol SDK
  // and the session code would make every preview pay for them (cli/src/entry/fast-acp.ts).
  const acp = !process.env.CW_NO_FAST_PATH && args[0] === 'acp' && args.length === 1;
  // So does `cw chat`, for the same reason (cli/src/entry/fast-chat.ts).
  const chat = !process.env.CW_NO_FAST_PATH && args[0] === 'chat';
  const done = acp
    ? await (await import('../dist/entry/fast-acp.js')).fastAcp([])
    : chat
      ? await (await import('../dist/entry/fast-chat.js')).fastChat(args.slice(1))
      : entries !== undefined &&
        (preview ? await entries.fastPreview(args.slice(1)) : await entries.fastSend(args.slice(1)));

  if (!done) {
    const { execute, settings } = await import('@oclif/core');

    // Compiled JavaScript only: skip oclif's TypeScript probing, which costs start-up time.
    settings.enableAutoTranspile = false;

    // oclif answers `--help` anywhere before a `--`, but after --prompt it is prompt text: fence the
    // prompt with `--` (the grammar accepts one right before --prompt) so the command receives it.
    const promptAt = args.findIndex((arg) => arg === '--prompt' || arg.startsWith('--prompt='));
    if (promptAt > 0 && args.slice(promptAt + 1).includes('--help') && args[promptAt - 1] !== '--')
      args.splice(promptAt, 0, '--');

    await execute({ args, dir: import.meta.url });
  }
}
