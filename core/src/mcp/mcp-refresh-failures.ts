import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import { withFileLock } from '../state/file-lock.js';
import type { McpErrorCode } from './connect-mcp-server.js';

/** Why a server's last refresh failed, for the config entry it failed with (docs/mcp.md). */
export interface McpRefreshFailure {
  /** mcpServerFingerprint of the config entry that failed: a changed entry is not "failed" any more. */
  readonly fingerprint: string;
  readonly code: McpErrorCode;
  /** One redacted line, as the refresh printed it. */
  readonly detail: string;
  readonly failed_at: string;
}

/** `$CW_HOME/mcp/refresh-failures.json`: the servers whose last refresh failed. */
export type McpRefreshFailures = Readonly<Record<string, McpRefreshFailure>>;

function failuresPath(home: string): string {
  return join(home, 'mcp', 'refresh-failures.json');
}

const CODES = new Set<string>([
  'env-reference',
  'spawn-failed',
  'timeout',
  'connection-closed',
  'http-error',
  'protocol-error',
  'aborted',
]);

function isFailure(value: unknown): value is McpRefreshFailure {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record['fingerprint'] === 'string' &&
    typeof record['code'] === 'string' &&
    CODES.has(record['code']) &&
    typeof record['detail'] === 'string' &&
    typeof record['failed_at'] === 'string'
  );
}

/** The recorded failures; a missing or unusable file reads as none (it only adds a word to `cw mcp list`). */
export async function readMcpRefreshFailures(home: string): Promise<McpRefreshFailures> {
  try {
    const raw = JSON.parse(await readFile(failuresPath(home), 'utf8')) as { servers?: unknown };
    const servers = raw.servers;
    if (typeof servers !== 'object' || servers === null) return {};
    return Object.fromEntries(Object.entries(servers).filter(([, value]) => isFailure(value))) as McpRefreshFailures;
  } catch {
    return {};
  }
}

/** Changes the recorded failures in one locked, atomic step. */
export async function updateMcpRefreshFailures(
  home: string,
  change: (current: McpRefreshFailures) => McpRefreshFailures,
): Promise<void> {
  const file = failuresPath(home);
  await mkdir(join(home, 'mcp'), { recursive: true, mode: 0o700 });
  await withFileLock(file, async () => {
    const next = change(await readMcpRefreshFailures(home));
    await writeFileAtomic(file, `${JSON.stringify({ version: 1, servers: next }, null, 2)}\n`);
  });
}
