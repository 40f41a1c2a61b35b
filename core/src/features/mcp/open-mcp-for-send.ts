import type { CwConfig } from '../../config/cw-config.js';
import type { CommandSandbox } from '../../sandbox/command-sandbox.js';
import { safeErrorText } from '../../redaction/index.js';
import type { McpState } from '../../snapshot/snapshot.js';
import type { ToolImplementation } from '../../tools/tool-contract.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import { type ConnectMcpServerOptions, connectMcpServer, type McpConnection } from '../../mcp/connect-mcp-server.js';
import { mcpCatalog } from '../../mcp/mcp-catalog.js';
import { mcpServerFingerprint } from '../../mcp/mcp-server-fingerprint.js';
import type { McpSnapshotServer } from '../../mcp/mcp-snapshot-state.js';
import type { McpSessionPool } from './mcp-session-pool.js';
import { storeListedTools } from '../../mcp/store-listed-tools.js';
import { mcpToolImplementation } from '../../mcp/mcp-tool-implementation.js';

/** The MCP servers a send talks to: the catalog and state the turn is planned with, their executors, and what failed. */
export interface OpenMcp {
  /** The plugins' tools, then the live servers' tools under their sent names. */
  readonly catalog: readonly ToolDefinition[];
  readonly mcp: McpState;
  /** One executor per MCP tool, named as the model sees it. */
  readonly tools: readonly ToolImplementation[];
  /** Servers that could not be started or listed: their tools are absent from this turn. */
  readonly failures: readonly { readonly name: string; readonly problem: string }[];
  /** Closes every connection (stdio servers are stopped). */
  close(): Promise<void>;
}

/**
 * Connects the enabled servers for one send. The turn goes out with the tools of the servers that
 * answered; one that fails is reported and left out. When what a server lists changed, the stored
 * snapshot is updated atomically, so the next preview describes what this send used.
 */
export async function openMcpForSend(options: {
  readonly home: string;
  readonly config: CwConfig;
  readonly env: NodeJS.ProcessEnv;
  /** What a stdio server starts from before its own `env` (docs/security.md). */
  readonly commandEnv: Readonly<Record<string, string>>;
  /** Whether a project server's workspace files are still the trusted ones (docs/mcp.md). */
  readonly filesUnchanged?: ConnectMcpServerOptions['filesUnchanged'];
  readonly pluginTools: readonly ToolDefinition[];
  readonly callTimeoutMs: number;
  readonly signal?: AbortSignal;
  /** An interactive session's pool: connections come from it and stay open after the send (mcp-session-pool.ts). */
  readonly pool?: McpSessionPool;
  /** Where servers with `"sandbox": true` run (docs/mcp.md). */
  readonly sandbox?: CommandSandbox;
  /** The workspace: a server started outside the sandbox is never looked up inside it (docs/security.md). */
  readonly workspace?: string;
  /** Shows a long MCP call's progress (docs/mcp.md). */
  readonly onProgress?: (toolName: string, line: string) => void;
}): Promise<OpenMcp> {
  const enabled = Object.entries(options.config.mcpServers)
    .filter(([, server]) => !server.disabled)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const connections = new Map<string, McpConnection>();
  const live: McpSnapshotServer[] = [];
  const failures: { name: string; problem: string }[] = [];
  const refreshedAt = new Date().toISOString();
  await Promise.all(
    enabled.map(async ([name, server]) => {
      try {
        const connectOptions = {
          env: options.env,
          commandEnv: options.commandEnv,
          ...(options.filesUnchanged ? { filesUnchanged: options.filesUnchanged } : {}),
          home: options.home,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.sandbox ? { sandbox: options.sandbox } : {}),
          ...(options.workspace ? { workspace: options.workspace } : {}),
        };
        const connection = await (options.pool
          ? options.pool.connect(name, server, connectOptions)
          : connectMcpServer(name, server, connectOptions));
        connections.set(name, connection);
        const tools = await connection.listTools(options.signal ? { signal: options.signal } : {});
        live.push({
          name,
          fingerprint: mcpServerFingerprint(server),
          server: connection.serverInfo,
          tools,
          refreshedAt,
        });
      } catch (error) {
        failures.push({ name, problem: safeErrorText(error instanceof Error ? error.message : String(error)) });
      }
    }),
  );
  live.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  failures.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const closeAll = async (): Promise<void> => {
    // A session's pool owns its connections: they close with the session, not with one send.
    if (options.pool) return;
    await Promise.all([...connections.values()].map((connection) => connection.close().catch(() => undefined)));
  };
  try {
    await storeListedTools(options.home, live);
  } catch (error) {
    // Nothing is sent without the snapshot recording what the turn used; the servers stop with it.
    await closeAll();
    throw error;
  }
  const catalog = mcpCatalog(live, new Set(options.pluginTools.map((tool) => tool.name)));
  const byPair = new Map(
    live.flatMap((server) => server.tools.map((tool) => [`${server.name}\u0000${tool.name}`, tool] as const)),
  );
  const tools = catalog.names.map(
    (entry): ToolImplementation =>
      mcpToolImplementation(
        entry,
        byPair.get(`${entry.server}\u0000${entry.tool}`),
        async () => connections.get(entry.server),
        options.callTimeoutMs,
        options.onProgress,
      ),
  );
  return {
    catalog: [...options.pluginTools, ...catalog.tools],
    mcp: enabled.length === 0 ? { kind: 'disabled' } : { kind: 'snapshot', serverCount: live.length },
    tools,
    failures,
    close: closeAll,
  };
}
