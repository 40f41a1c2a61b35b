// Runs the built CLI (cli/bin/run.js, on core/dist and cli/dist) as a child process, the way a user
// does: its own pid, its own stdout and stderr, its own exit code. Run `npm run build` first.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CW_BIN, REPO_ROOT, onlyWorkspaceFolder, sessionFile } from './cw-fixture.js';

/** How one cw child process ended, and what it printed. */
export interface CwExit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running cw child process. */
export interface CwChild {
  readonly child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  readonly done: Promise<CwExit>;
}

/**
 * The child's environment: this process's, without anything cw reads (CW_*) or any API key, plus
 * `env`. Plugins are read from `env.CW_DATA_DIR`, which callers set to a temp folder, so the user's
 * own linked plugins never take part.
 */
export function cwEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('CW_') && !name.endsWith('_API_KEY')),
  );
  return { ...base, ...env };
}

/** Where a cw child runs; the repository root unless a test needs its own working folder. */
export interface SpawnOptions {
  readonly cwd?: string;
}

/** Starts `node cli/bin/run.js <args>`. */
export function spawnCw(args: readonly string[], env: Record<string, string>, options: SpawnOptions = {}): CwChild {
  const child = spawn(process.execPath, [CW_BIN, ...args], {
    env: cwEnv(env),
    cwd: options.cwd ?? REPO_ROOT,
    stdio: 'pipe',
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const done = new Promise<CwExit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
  return { child, stderr: () => Buffer.concat(err).toString('utf8'), done };
}

/** Runs cw to the end. */
export function runCwChild(
  args: readonly string[],
  env: Record<string, string>,
  options: SpawnOptions = {},
): Promise<CwExit> {
  return spawnCw(args, env, options).done;
}

/** A fresh, empty temp folder (for CW_DATA_DIR, TMPDIR, …); `cleanup` removes every folder made. */
export function tempFolders(): { make: (prefix: string) => Promise<string>; cleanup: () => Promise<void> } {
  const made: string[] = [];
  return {
    make: async (prefix) => {
      const folder = await mkdtemp(join(tmpdir(), prefix));
      made.push(folder);
      return folder;
    },
    cleanup: async () => {
      await Promise.all(made.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
    },
  };
}

/** The messages of a saved session (of the one workspace the home holds sessions for). */
export async function sessionMessages(home: string, name = 'default'): Promise<Record<string, unknown>[]> {
  const text = await readFile(await sessionFile(home, name), 'utf8');
  return (JSON.parse(text) as { messages: Record<string, unknown>[] }).messages.map(withoutRequestHash);
}

/**
 * A stored reply without the hash of the request it answered (checked well formed when present):
 * tests compare conversations, and the hash pins a request, not the conversation.
 */
export function withoutRequestHash(message: Record<string, unknown>): Record<string, unknown> {
  if (message['role'] !== 'assistant' || !('body_sha256' in message)) return message;
  const { body_sha256: hash, ...rest } = message;
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
    throw new Error('a stored reply has a malformed body_sha256');
  return rest;
}

/** The entries of the workspace's sessions folder, sorted: locks, stale locks and temp files show up here. */
export async function sessionFolderEntries(home: string): Promise<string[]> {
  return (await readdir(await onlyWorkspaceFolder(home))).sort();
}

/** Waits until `check` is true, polling; throws after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
