// The fixture MCP server (test/fixtures/mcp/fixture-server.mjs) as tests start it: over stdio as a
// config entry, or over streamable HTTP on 127.0.0.1 as a child process with its port.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from './cw-fixture.js';

/** The fixture server's script. */
export const MCP_FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'mcp', 'fixture-server.mjs');

/** The tools the fixture lists, in its order. */
export const MCP_FIXTURE_TOOLS = ['echo', 'add', 'slow', 'fail', 'mixed', 'env', 'header', 'grow', 'stats'];

/** A stdio config entry (as written in config.json) that starts the fixture with `args`. */
export function stdioFixtureEntry(
  args: readonly string[] = [],
  extra: { env?: Record<string, string>; disabled?: boolean } = {},
): Record<string, unknown> {
  return { command: process.execPath, args: [MCP_FIXTURE, ...args], ...extra };
}

/** A running HTTP fixture; `stop` ends it. */
export interface HttpFixture {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the fixture over streamable HTTP on a free port of 127.0.0.1; its URL ends in /mcp. */
export async function startHttpFixture(args: readonly string[] = []): Promise<HttpFixture> {
  const child = spawn(process.execPath, [MCP_FIXTURE, '--http', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.resume();
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(() => {
      throw new Error('the HTTP fixture exited before printing its port');
    }),
  ])) as [string];
  lines.close();
  const port = Number(first);
  if (!Number.isInteger(port) || port <= 0) throw new Error('the HTTP fixture printed no port');
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
