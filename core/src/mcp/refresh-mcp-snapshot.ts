import { toolEnvironment } from '../agent/tool-environment.js';
import type { CwConfig, McpServerConfig } from '../config/cw-config.js';
import {
  connectMcpServer,
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  type ConnectMcpServerOptions,
  type McpConnection,
  type McpErrorCode,
  McpServerError,
} from './connect-mcp-server.js';
import { type McpRefreshFailure, updateMcpRefreshFailures } from './mcp-refresh-failures.js';
import { mcpServerFingerprint } from './mcp-server-fingerprint.js';
import { type McpSnapshot, type McpSnapshotEntry, updateMcpSnapshot } from './mcp-snapshot-store.js';

/** How one server's refresh went: its tool count, or why it failed (a code and one redacted line). */
export type McpRefreshResult =
  | { readonly name: string; readonly ok: true; readonly toolCount: number }
  | { readonly name: string; readonly ok: false; readonly code: McpErrorCode; readonly detail: string };

/** What to refresh, and how. */
export interface RefreshMcpSnapshotOptions {
  /** The cw home the snapshot is written in. */
  readonly home: string;
  /** The config's `mcpServers`. */
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  /**
   * Refresh only these servers (each must be configured and enabled; the caller checks). Absent:
   * every enabled server, and entries for servers no longer configured are dropped.
   */
  readonly only?: readonly string[];
  /** Where `${env:NAME}` references are looked up. Default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The config whose `sandbox.env` and route key variables shape a stdio server's environment, as in a send (docs/security.md). */
  readonly config?: Pick<CwConfig, 'routes' | 'sandbox'>;
  /** For each server: connecting may take this long, and so may listing its tools. Default 10 s. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** The clock, for tests. */
  readonly now?: () => Date;
  /** Where servers with `"sandbox": true` run (docs/mcp.md). */
  readonly sandbox?: ConnectMcpServerOptions['sandbox'];
  /** The workspace: a server started outside the sandbox is never looked up inside it (docs/security.md). */
  readonly workspace?: string;
  /** The connector, for tests. Default: connectMcpServer. */
  readonly connect?: (
    name: string,
    server: McpServerConfig,
    options: ConnectMcpServerOptions,
  ) => Promise<McpConnection>;
}

/**
 * Connects every server to refresh at once, each within its own timeout; lists their tools; and
 * writes the snapshot in one locked, atomic update. A server that answered gets an entry under its
 * current fingerprint; a server that failed loses its entry (the snapshot only ever holds what a server
 * listed for its config as it is now). Results come back in the order of `servers`, one per server
 * refreshed; every connection is closed before this returns.
 */
export async function refreshMcpSnapshot(options: RefreshMcpSnapshotOptions): Promise<McpRefreshResult[]> {
  const only = options.only === undefined ? null : new Set(options.only);
  const targets = Object.entries(options.servers).filter(
    ([name, server]) => !server.disabled && (only === null || only.has(name)),
  );
  const now = options.now ?? (() => new Date());
  const outcomes = await Promise.all(targets.map(([name, server]) => refreshOne(name, server, options)));

  await updateMcpSnapshot(options.home, (current): McpSnapshot => {
    const servers: Record<string, McpSnapshotEntry> = {};
    for (const [name, entry] of Object.entries(current.servers)) {
      // A full refresh forgets servers that are gone from config; a partial one leaves others alone.
      if (only === null && !Object.hasOwn(options.servers, name)) continue;
      servers[name] = entry;
    }
    const refreshedAt = now().toISOString();
    for (const outcome of outcomes) {
      if (outcome.entry === null) delete servers[outcome.result.name];
      else servers[outcome.result.name] = { ...outcome.entry, refreshed_at: refreshedAt };
    }
    return { version: 1, servers };
  });
  // `cw mcp list` says which servers failed their last refresh, for the config entry they failed with.
  const failedAt = now().toISOString();
  await updateMcpRefreshFailures(options.home, (current) => {
    const next: Record<string, McpRefreshFailure> = {};
    for (const [name, failure] of Object.entries(current)) {
      if (only === null && !Object.hasOwn(options.servers, name)) continue;
      next[name] = failure;
    }
    for (const { result } of outcomes) {
      const server = options.servers[result.name];
      if (result.ok || server === undefined) delete next[result.name];
      else
        next[result.name] = {
          fingerprint: mcpServerFingerprint(server),
          code: result.code,
          detail: result.detail,
          failed_at: failedAt,
        };
    }
    return next;
  });
  return outcomes.map((outcome) => outcome.result);
}

interface Outcome {
  readonly result: McpRefreshResult;
  readonly entry: Omit<McpSnapshotEntry, 'refreshed_at'> | null;
}

async function refreshOne(name: string, server: McpServerConfig, options: RefreshMcpSnapshotOptions): Promise<Outcome> {
  const connect = options.connect ?? connectMcpServer;
  const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
  const signal = options.signal;
  let connection: McpConnection | null = null;
  try {
    connection = await connect(name, server, {
      timeoutMs,
      home: options.home,
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.config === undefined
        ? {}
        : { commandEnv: toolEnvironment(options.env ?? process.env, [], options.config) }),
      ...(signal === undefined ? {} : { signal }),
      ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
      ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
    });
    const tools = await connection.listTools({ timeoutMs, ...(signal === undefined ? {} : { signal }) });
    return {
      result: { name, ok: true, toolCount: tools.length },
      entry: { fingerprint: mcpServerFingerprint(server), server: connection.serverInfo, tools },
    };
  } catch (error) {
    const failure =
      error instanceof McpServerError ? error : new McpServerError(name, 'protocol-error', 'failed unexpectedly');
    return { result: { name, ok: false, code: failure.code, detail: failure.detail }, entry: null };
  } finally {
    await connection?.close();
  }
}
