import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { CommandBinding } from '../tools/tool-contract.js';

// Nothing cw starts may outlive it (docs/agent-loop.md, "Nothing outlives cw"). The kernel's
// parent-death signal does that, but whoever arms it (bubblewrap's --die-with-parent, setpriv) does
// so after the fork: a cw killed in between leaves the command running on its own. So the command
// runs behind a prelude that first reports on an inherited channel and then waits for cw's "go":
// cw answers only once it heard the report, by which time the signal is armed; a cw that died
// earlier never answers, the prelude reads end-of-file and exits without running anything.

/** The fd the prelude reports and waits on; 3 and 4 are the sandbox's (its filter, the proxy bridge's channel). */
const CHANNEL_FD = 5;
/** The byte the prelude reports with, and the line cw lets it go with. */
const READY = 'r';
const GO = 'g';

// POSIX sh: report, wait for exactly "g", close the channel so the command never holds it, and become
// the command. Its stdin stays what it was. Exit 125 is "cw was gone": nothing ran.
const PRELUDE = `printf ${READY} >&${CHANNEL_FD} || exit 125; IFS= read -r go <&${CHANNEL_FD} || exit 125; [ "$go" = ${GO} ] || exit 125; exec ${CHANNEL_FD}<&-; exec "$@"`;

// A program that may arm the parent-death signal for an unsandboxed command: only from the system's
// own folders, never one found on PATH, which the workspace may reach.
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'];

/** setpriv from a system folder, or null where there is none (then only the sandbox binds a command). */
function setprivProgram(): string | null {
  return SETPRIV.find((path) => existsSync(path)) ?? null;
}

/** The argv that arms the parent-death signal (where this system can) and then runs `argv`. */
function withParentDeathSignal(argv: readonly string[]): string[] {
  const setpriv = setprivProgram();
  return setpriv === null ? [...argv] : [setpriv, '--pdeathsig', 'KILL', '--', ...argv];
}

/**
 * The binding of one send's commands: `argv` puts the prelude in front of a command (inside the
 * sandbox when it is sandboxed, where bubblewrap's --die-with-parent arms the signal; behind setpriv
 * otherwise), and `start` lets it run once it reported. `pause` holds a test run at the fork.
 */
export function commandBinding(pause?: (point: string) => Promise<void>): CommandBinding {
  return {
    channelFd: CHANNEL_FD,
    argv(argv, sandboxed) {
      const preluded = ['/bin/sh', '-c', PRELUDE, 'cw-bound', ...argv];
      return sandboxed ? preluded : withParentDeathSignal(preluded);
    },
    async start(channel, signal) {
      // A prelude that is gone (the sandbox failed to start) makes writes fail: that is its exit, not cw's error.
      channel.on('error', () => {});
      await pause?.('command-spawned');
      const reported = await firstByte(channel);
      // A Ctrl-C that landed while the command was being started: it never runs.
      if (reported !== READY || signal.aborted) {
        channel.destroy();
        return false;
      }
      // The line stays readable after cw's end closes, so the channel need not stay open.
      channel.end(`${GO}\n`, () => channel.destroy());
      return true;
    },
  };
}

/** The first byte the prelude sends, or null when the channel closed first. */
function firstByte(channel: Duplex): Promise<string | null> {
  return new Promise((resolve) => {
    const done = (value: string | null): void => {
      channel.off('data', onData);
      channel.off('close', onClose);
      channel.off('end', onClose);
      channel.off('error', onClose);
      resolve(value);
    };
    const onData = (chunk: Buffer): void => done(chunk.subarray(0, 1).toString('latin1'));
    const onClose = (): void => done(null);
    channel.on('data', onData);
    channel.once('close', onClose);
    channel.once('end', onClose);
    channel.once('error', onClose);
  });
}

/**
 * A server's command (an MCP stdio server) bound to cw without a channel: setpriv arms the
 * parent-death signal, then a prelude checks that its parent is still this cw before it becomes the
 * server; a cw that died before the signal was armed has left it another parent, and nothing runs.
 */
export function boundServerCommand(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): { command: string; args: string[] } {
  const setpriv = setprivProgram();
  // A command that cannot start is left to fail as itself, so its error says what is wrong.
  if (setpriv === null || !runnable(command, env['PATH'] ?? '')) return { command, args: [...args] };
  return {
    command: setpriv,
    args: [
      '--pdeathsig',
      'KILL',
      '--',
      '/bin/sh',
      '-c',
      '[ "$PPID" = "$0" ] || exit 125; exec "$@"',
      String(process.pid),
      command,
      ...args,
    ],
  };
}

/** Whether `command` names an executable file, directly or on `path`, as spawn would find it. */
function runnable(command: string, path: string): boolean {
  const candidates = command.includes('/')
    ? [command]
    : path
        .split(delimiter)
        .filter((folder) => isAbsolute(folder))
        .map((folder) => join(folder, command));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
}
