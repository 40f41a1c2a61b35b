import { createRequire } from 'node:module';
import { HeadTailBuffer } from './bound-output.js';
import { errorCode } from './fs-error-message.js';
import { guarded } from './guard-execute.js';
import { argumentsObject, label, optionalInteger, requiredString } from './tool-arguments.js';
import {
  fail,
  ok,
  type ToolContext,
  type ToolImplementation,
  type ToolLimits,
  type ToolOutcome,
} from './tool-types.js';

/** No command runs longer than this, whatever the arguments or the limits say. */
export const MAX_COMMAND_TIMEOUT_MS = 600_000;
/** After the shell exits, how long its output pipes may stay open (held by an escaped child) before reading stops. */
const DRAIN_GRACE_MS = 500;
/** After a SIGKILL, how long to wait for the exit before giving up on the process. */
const KILL_GRACE_MS = 2_000;

/** shell: `/bin/sh -c command` in the workspace, in its own process group, bounded in time and output. */
export const shellTool: ToolImplementation = {
  name: 'shell',
  description: 'Run a shell command in the workspace and return its output and exit code.',
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command line to run.' },
      timeout_seconds: { type: 'integer', minimum: 1, maximum: 600 },
    },
    required: ['command'],
    additionalProperties: false,
  },
  readOnly: false,
  summarize: (args) => label(args['command']),
  commandOf: (args) => (typeof args['command'] === 'string' ? args['command'] : null),
  execute: guarded('shell', async (rawArgs, context) => {
    const args = argumentsObject(rawArgs);
    if (!args.ok) return fail(args.error);
    const command = requiredString(args.value, 'command');
    if (!command.ok) return fail(command.error);
    if (command.value.trim() === '') return fail('command is empty');
    const seconds = optionalInteger(args.value, 'timeout_seconds', 1, MAX_COMMAND_TIMEOUT_MS / 1000);
    if (!seconds.ok) return fail(seconds.error);
    if (context.signal.aborted) return fail('cancelled before the command started');
    const timeoutMs = effectiveTimeoutMs(seconds.value, context.limits);
    const sandbox = context.sandbox;
    if (sandbox === undefined)
      return plain(await runCommand(bound(['/bin/sh', '-c', command.value], false, context), timeoutMs, context, null));
    const inside = await runSandboxed(sandbox, command.value, timeoutMs, context);
    if (inside.status === 'ok' || inside.stoppedBy !== null) return plain(inside);
    // Under `ask` the person may let this one command run outside the sandbox (docs/security.md).
    if (
      context.offerUnsandboxedRun === undefined ||
      !(await context.offerUnsandboxedRun(sandbox.reason(inside.content)))
    )
      return plain(inside);
    const outside = await runCommand(bound(['/bin/sh', '-c', command.value], false, context), timeoutMs, context, null);
    return {
      status: outside.status,
      content: `[run again outside the sandbox, once, as the user allowed]\n${outside.content}`,
    };
  }),
};

/** The call's time budget: timeout_seconds when given, else the limits' default; never above 600 s. */
export function effectiveTimeoutMs(seconds: number | undefined, limits: ToolLimits): number {
  const requested = seconds !== undefined ? seconds * 1000 : limits.commandTimeoutMs;
  return Math.max(1, Math.min(requested, MAX_COMMAND_TIMEOUT_MS));
}

type Ending =
  | { readonly kind: 'exit'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: 'spawn-error'; readonly code: string };

// node:child_process is loaded when a command first runs, not when cw loads its plugins.
const requireBuiltin = createRequire(import.meta.url);

function plain(outcome: CommandOutcome): ToolOutcome {
  return { status: outcome.status, content: outcome.content };
}

/** A command's outcome, and whether the timeout or a cancel stopped it. */
type CommandOutcome = ToolOutcome & { readonly stoppedBy: 'timeout' | 'abort' | null };

async function runSandboxed(
  sandbox: NonNullable<ToolContext['sandbox']>,
  command: string,
  timeoutMs: number,
  context: ToolContext,
): Promise<CommandOutcome> {
  const wrapped = await sandbox.wrap(bound(['/bin/sh', '-c', command], true, context), {
    cwd: context.workspace,
    env: context.env,
  });
  try {
    return await runCommand(
      [wrapped.file, ...wrapped.args],
      timeoutMs,
      { ...context, env: wrapped.env },
      sandbox,
      wrapped,
    );
  } finally {
    await wrapped.release();
  }
}

/** The argv that ties the command to cw's life, when the host offers it (docs/agent-loop.md). */
function bound(argv: readonly string[], sandboxed: boolean, context: ToolContext): readonly string[] {
  return context.binding ? context.binding.argv(argv, sandboxed) : argv;
}

function runCommand(
  argv: readonly string[],
  timeoutMs: number,
  context: ToolContext,
  sandbox: ToolContext['sandbox'] | null,
  // What the sandbox adds to the spawn: its filter and bridge descriptors (docs/security.md).
  wrapped?: Pick<Awaited<ReturnType<NonNullable<ToolContext['sandbox']>['wrap']>>, 'stdio' | 'attach'>,
): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const output = new HeadTailBuffer(context.limits);
    let stoppedBy: 'timeout' | 'abort' | null = null;
    let ending: Ending | null = null;
    let finished = false;
    let streamsHeld = false;
    const timers: NodeJS.Timeout[] = [];

    // A Ctrl-C that landed while the sandbox was being prepared: nothing starts. From here to the
    // subscription below there is no await, so none can land unseen.
    if (context.signal.aborted) {
      resolve({ ...fail('killed: the call was cancelled before the command started'), stoppedBy: 'abort' });
      return;
    }
    const binding = context.binding;
    const { spawn } = requireBuiltin('node:child_process') as typeof import('node:child_process');
    const child = spawn(argv[0] as string, argv.slice(1), {
      cwd: context.workspace,
      // Exactly the loop's environment: it has already removed the routes' key variables.
      env: { ...context.env },
      // The sandbox's own descriptors first (its filter, the proxy bridge's channel), then the
      // binding's channel at the fd its prelude waits on (docs/agent-loop.md, "Nothing outlives cw").
      stdio: commandStdio(wrapped?.stdio ?? [], binding?.channelFd ?? null),
      // Its own process group, so a kill reaches everything the command started.
      detached: true,
    });
    wrapped?.attach(child);

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is gone already.
      }
    };

    const finish = (): void => {
      if (finished) return;
      finished = true;
      for (const timer of timers) clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      const text = output.render();
      const result = outcome(text, ending, stoppedBy, timeoutMs, streamsHeld);
      // A failure inside the sandbox says what the sandbox refuses, so the model can tell it from a bug.
      const content =
        sandbox && result.status === 'error' && stoppedBy === null && ending?.kind === 'exit'
          ? `${result.content}\n${sandbox.reason(text)}`
          : result.content;
      resolve({ status: result.status, content, stoppedBy });
    };

    const stop = (reason: 'timeout' | 'abort'): void => {
      if (ending !== null) return;
      stoppedBy = reason;
      killGroup();
      timers.push(setTimeout(finish, KILL_GRACE_MS));
    };
    const onAbort = (): void => stop('abort');

    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => {
      ending ??= { kind: 'spawn-error', code: errorCode(error) ?? error.name };
      finish();
    });
    child.on('exit', (code, signal) => {
      ending = { kind: 'exit', code, signal };
      // Nothing the command started outlives the call: background children of the group go with it.
      killGroup();
      timers.push(
        setTimeout(() => {
          streamsHeld = true;
          finish();
        }, DRAIN_GRACE_MS),
      );
    });
    child.on('close', finish);

    timers.push(setTimeout(() => stop('timeout'), timeoutMs));
    context.signal.addEventListener('abort', onAbort, { once: true });
    const channel = binding ? child.stdio[binding.channelFd] : undefined;
    if (binding && channel && 'destroy' in channel) {
      // The command waits for this; when it may not run it exits unstarted, and a cancel is reported as one.
      void binding.start(channel as import('node:stream').Duplex, context.signal).then((started) => {
        if (!started && context.signal.aborted) stop('abort');
      });
    }
  });
}

function outcome(
  text: string,
  ending: Ending | null,
  stoppedBy: 'timeout' | 'abort' | null,
  timeoutMs: number,
  streamsHeld: boolean,
): ToolOutcome {
  const withStatus = (status: string): string => {
    const notes = streamsHeld ? "[a process outside the command's group kept its output open; reading stopped]\n" : '';
    if (text === '') return notes + status;
    return `${text}${text.endsWith('\n') ? '' : '\n'}${notes}${status}`;
  };
  if (ending?.kind === 'spawn-error') return fail(`the command could not be started (${ending.code})`);
  if (stoppedBy === 'timeout') return fail(withStatus(`killed after ${formatSeconds(timeoutMs)} s (timeout)`));
  if (stoppedBy === 'abort') return fail(withStatus('killed: the call was cancelled'));
  if (ending === null) return fail(withStatus('the command did not report an exit'));
  if (ending.code !== null) {
    const line = `exit code ${ending.code}`;
    return ending.code === 0 ? ok(withStatus(line)) : fail(withStatus(line));
  }
  return fail(withStatus(`killed by signal ${ending.signal ?? 'unknown'}`));
}

function formatSeconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

/** A spawn's stdio: stdin ignored, output piped, the sandbox's entries from fd 3, the binding's channel at its fd. */
function commandStdio(
  sandboxEntries: Awaited<ReturnType<NonNullable<ToolContext['sandbox']>['wrap']>>['stdio'],
  channelFd: number | null,
): import('node:child_process').StdioOptions {
  const stdio: import('node:child_process').StdioOptions = ['ignore', 'pipe', 'pipe', ...sandboxEntries];
  if (channelFd === null) return stdio;
  if (stdio.length > channelFd) throw new Error('the sandbox uses the fd the command binding waits on');
  while (stdio.length < channelFd) stdio.push('ignore');
  stdio.push('pipe');
  return stdio;
}
