import type { CommandSandbox, WrappedCommand } from '../../sandbox/command-sandbox.js';
import { userProgramOutsideWorkspace } from '../../sandbox/trusted-program.js';
import { createRequire } from 'node:module';
import type { MessageSubmitHookConfig } from '../../config/cw-config.js';
import { safeErrorText } from '../../redaction/index.js';

// A hook answers with a small JSON document; anything larger is not an answer.
const MAX_HOOK_OUTPUT_BYTES = 1024 * 1024;
/** The exit code by which a hook blocks the prompt. */
export const HOOK_BLOCK_EXIT = 2;

/** A message_submit hook blocked the prompt (exit 2); nothing was sent. The reason is redacted. */
export class HookBlockedError extends Error {
  override readonly name = 'HookBlockedError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(index: number, reason: string) {
    const shown = reason.trim() === '' ? 'no reason given' : safeErrorText(reason);
    super(`message_submit hook ${index} blocked this prompt: ${shown}; nothing was sent`);
    this.safeMessage = this.message;
  }
}

/** A message_submit hook failed, timed out or answered with something that is not a prompt; nothing was sent. */
export class HookFailedError extends Error {
  override readonly name = 'HookFailedError';
  readonly exitCode = 1;
  readonly safeMessage: string;
  constructor(index: number, problem: string) {
    super(
      `message_submit hook ${index} ${problem}; nothing was sent (fix the hook or remove it from hooks.message_submit)`,
    );
    this.safeMessage = this.message;
  }
}

/** What a hook is told: the prompt and the session, as one JSON document on its stdin. */
export interface HookInput {
  readonly prompt: string;
  readonly session: string;
}

/**
 * Runs each hook in order on the prompt (docs/hooks.md): exit 0 keeps it, or replaces it with the
 * `prompt` of a JSON answer on stdout; exit 2 blocks it; anything else stops the send. Each hook sees
 * the prompt the one before it produced. `env` must already be free of API keys.
 */
export async function runMessageSubmitHooks(
  hooks: readonly MessageSubmitHookConfig[],
  input: HookInput,
  options: {
    readonly cwd: string;
    readonly env: Record<string, string>;
    readonly signal?: AbortSignal;
    /** When present, each hook runs inside it, as the model's commands do (docs/security.md). */
    readonly sandbox?: CommandSandbox;
    /** Without a sandbox, a hook's program is never looked up inside it (docs/security.md). */
    readonly workspace?: string;
  },
): Promise<string> {
  let prompt = input.prompt;
  for (const [at, hook] of hooks.entries()) {
    const index = at + 1;
    const wrapped = options.sandbox ? await options.sandbox.wrap(hook.command, options) : null;
    const [program = '', ...args] = hook.command;
    const file =
      wrapped?.file ??
      userProgramOutsideWorkspace(program, options.env, options.workspace ? { workspace: options.workspace } : {});
    if (file === null) throw new HookFailedError(index, 'could not be started (ENOENT)');
    const result = await runHook(
      { ...hook, command: wrapped === null ? [file, ...args] : [wrapped.file, ...wrapped.args] },
      JSON.stringify({ event: 'message_submit', prompt, session: input.session }),
      wrapped === null ? options : { ...options, env: wrapped.env, wrapped },
    ).finally(() => wrapped?.release());
    if (result.kind === 'spawn-failed') throw new HookFailedError(index, `could not be started (${result.code})`);
    if (result.kind === 'timed-out') throw new HookFailedError(index, `did not finish within ${hook.timeout_ms} ms`);
    if (result.kind === 'too-large') throw new HookFailedError(index, `wrote more than ${MAX_HOOK_OUTPUT_BYTES} bytes`);
    if (result.exitCode === HOOK_BLOCK_EXIT) throw new HookBlockedError(index, firstLine(result.stderr));
    if (result.exitCode !== 0)
      throw new HookFailedError(
        index,
        `failed (${result.exitCode === null ? `signal ${result.signal}` : `exit ${result.exitCode}`})`,
      );
    prompt = answeredPrompt(index, result.stdout) ?? prompt;
  }
  return prompt;
}

/** The prompt a hook's stdout replaces the prompt with; null keeps it (empty stdout, or no `prompt` field). */
function answeredPrompt(index: number, stdout: string): string | null {
  if (stdout.trim() === '') return null;
  let answer: unknown;
  try {
    answer = JSON.parse(stdout);
  } catch {
    throw new HookFailedError(index, 'exited 0 but its stdout is not JSON');
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
    throw new HookFailedError(index, 'exited 0 but its stdout is not a JSON object');
  if (!Object.hasOwn(answer, 'prompt')) return null;
  const prompt = (answer as { prompt: unknown }).prompt;
  if (typeof prompt !== 'string' || prompt.trim() === '')
    throw new HookFailedError(index, 'answered with a prompt that is not a non-empty string');
  return prompt;
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '') ?? '';
}

type HookResult =
  | { kind: 'exited'; exitCode: number | null; signal: string | null; stdout: string; stderr: string }
  | { kind: 'spawn-failed'; code: string }
  | { kind: 'timed-out' }
  | { kind: 'too-large' };

// node:child_process is loaded when a hook first runs: most turns run none.
const requireBuiltin = createRequire(import.meta.url);

function runHook(
  hook: MessageSubmitHookConfig,
  stdin: string,
  options: {
    readonly cwd: string;
    readonly env: Record<string, string>;
    readonly signal?: AbortSignal;
    /** The sandbox's additions to the spawn: its filter and bridge descriptors. */
    readonly wrapped?: Pick<WrappedCommand, 'stdio' | 'attach'>;
  },
): Promise<HookResult> {
  const [program, ...args] = hook.command;
  return new Promise((resolve) => {
    const { spawn } = requireBuiltin('node:child_process') as typeof import('node:child_process');
    const child = spawn(program ?? '', args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe', ...(options.wrapped?.stdio ?? [])],
      shell: false,
    }) as import('node:child_process').ChildProcessWithoutNullStreams;
    options.wrapped?.attach(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let settled: HookResult | null = null;
    const finish = (result: HookResult): void => {
      if (settled !== null) return;
      settled = result;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const stop = (result: HookResult): void => {
      child.kill('SIGKILL');
      finish(result);
    };
    const timer = setTimeout(() => stop({ kind: 'timed-out' }), hook.timeout_ms);
    const onAbort = (): void => stop({ kind: 'timed-out' });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const collect = (sink: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_HOOK_OUTPUT_BYTES) stop({ kind: 'too-large' });
      else sink.push(chunk);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    child.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'spawn-failed', code: error.code ?? 'error' }));
    child.on('close', (exitCode, signal) =>
      finish({
        kind: 'exited',
        exitCode,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
    // A hook that does not read its stdin must not fail the write.
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}
