// A real npm registry for end-to-end tests: Verdaccio (a devDependency) in a child process on
// 127.0.0.1, with temporary storage and no uplinks, plus an npm user config that points at it with a
// fake token. Also a child-process runner with a timeout and an environment free of the outer npm's
// and vitest's variables, so the npm and cw runs a test makes see only the configuration it gives them.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from './cw-fixture.js';

const SERVER_SCRIPT = join(REPO_ROOT, 'test', 'support', 'local-registry-server.mjs');
const START_TIMEOUT_MS = 30_000;

/** How a child process ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running local registry. */
export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** An npm user config file: `@cw` packages from this registry, its fake token, no update checks, funding or audit. */
  readonly userconfig: string;
  /** Stops the registry process and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * The environment children run with: this process's, without npm's lifecycle variables (an outer
 * `npm test` exports its prefix and config as npm_config_*), vitest's, cw's own and any API key.
 */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const dropped = /^(npm_|vitest|tinypool|cw_)/i;
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !dropped.test(name) && !name.endsWith('_API_KEY') && name !== 'NODE_ENV' && name !== 'NODE_OPTIONS',
    ),
  );
  // The outer npm's cache location, if it named one, so tarballs already fetched are reused.
  const cache = process.env['npm_config_cache'];
  return { ...base, ...(cache ? { npm_config_cache: cache } : {}), NO_COLOR: '1', ...extra };
}

/** Runs a command to the end, killing it (and failing) after `timeoutMs`. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ProcessExit> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** A loopback port that was free a moment ago and is closed now: every request to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Starts Verdaccio with its storage in `folder` and writes the npm user config next to it. */
export async function startLocalRegistry(folder: string): Promise<LocalRegistry> {
  // stdin stays open as a pipe: the server exits when it closes, so it dies with this process.
  const child: ChildProcess = spawn(process.execPath, [SERVER_SCRIPT, folder], {
    cwd: REPO_ROOT,
    env: childEnv({}),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
  };
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the local registry did not start in time')), START_TIMEOUT_MS);
      child.once('exit', (code) =>
        reject(new Error(`the local registry exited (${String(code)}) before it was ready: ${stderr.join('')}`)),
      );
      const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
      lines.once('line', (line) => {
        clearTimeout(timer);
        try {
          resolve((JSON.parse(line) as { port: number }).port);
        } catch {
          reject(new Error(`the local registry printed something else first: ${line}`));
        }
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  // Keep reading, so a chatty server never blocks on a full pipe.
  child.stdout?.resume();
  const url = `http://127.0.0.1:${port}/`;
  const userconfig = join(folder, 'npmrc');
  await writeFile(
    userconfig,
    [
      // cw's own packages come from here; everything else from npm's default registry.
      `@cw:registry=${url}`,
      `//127.0.0.1:${port}/:_authToken=fake-registry-token-0000`,
      'update-notifier=false',
      'fund=false',
      'audit=false',
      '',
    ].join('\n'),
  );
  return { url, userconfig, stop };
}
