import type { ConnectMcpServerOptions } from '../../mcp/connect-mcp-server.js';
import type { CommandSandbox } from '../../sandbox/command-sandbox.js';
import type { CwConfig } from '../../config/cw-config.js';
import { mcpCatalog } from '../../mcp/mcp-catalog.js';
import { mcpSnapshotState } from '../../mcp/mcp-snapshot-state.js';
import { readMcpSnapshot } from '../../mcp/mcp-snapshot-store.js';
import { mcpToolImplementation } from '../../mcp/mcp-tool-implementation.js';
import type { ToolImplementation } from '../../tools/tool-contract.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import type { McpSessionPool } from './mcp-session-pool.js';

/**
 * The executors of the stored snapshot's MCP tools for a turn: the snapshot already offers the tools
 * (as a preview shows them), so no server starts until the model calls one of its tools; then it
 * stays up for the pool's life (the send, or the interactive session). Null when the snapshot does
 * not match the config: then every server is started and listed before the request.
 */
export async function lazyMcpTools(options: {
  readonly home: string;
  readonly config: CwConfig;
  readonly env: NodeJS.ProcessEnv;
  /** What a stdio server starts from before its own `env` (docs/security.md). */
  readonly commandEnv: Readonly<Record<string, string>>;
  /** Whether a project server's workspace files are still the trusted ones (docs/mcp.md). */
  readonly filesUnchanged?: ConnectMcpServerOptions['filesUnchanged'];
  readonly pluginTools: readonly ToolDefinition[];
  readonly pool: McpSessionPool;
  readonly callTimeoutMs: number;
  /** Where servers with `"sandbox": true` run (docs/mcp.md); without it such a server is not started. */
  readonly sandbox?: CommandSandbox;
  /** The workspace: a server started outside the sandbox is never looked up inside it (docs/security.md). */
  readonly workspace?: string;
  /** Shows a long MCP call's progress (docs/mcp.md). */
  readonly onProgress?: (toolName: string, line: string) => void;
}): Promise<ToolImplementation[] | null> {
  let state: ReturnType<typeof mcpSnapshotState>;
  try {
    state = mcpSnapshotState(options.config.mcpServers, await readMcpSnapshot(options.home));
  } catch {
    return null;
  }
  if (state.kind !== 'snapshot') return null;
  const catalog = mcpCatalog(state.servers, new Set(options.pluginTools.map((tool) => tool.name)));
  const byPair = new Map(
    state.servers.flatMap((server) => server.tools.map((tool) => [`${server.name}\u0000${tool.name}`, tool] as const)),
  );
  return catalog.names.map(
    (entry): ToolImplementation =>
      mcpToolImplementation(
        entry,
        byPair.get(`${entry.server}\u0000${entry.tool}`),
        async (signal) => {
          const server = Object.hasOwn(options.config.mcpServers, entry.server)
            ? options.config.mcpServers[entry.server]
            : undefined;
          if (server === undefined) return undefined;
          return options.pool.connect(entry.server, server, {
            env: options.env,
            commandEnv: options.commandEnv,
            ...(options.filesUnchanged ? { filesUnchanged: options.filesUnchanged } : {}),
            home: options.home,
            signal,
            ...(options.sandbox ? { sandbox: options.sandbox } : {}),
            ...(options.workspace ? { workspace: options.workspace } : {}),
          });
        },
        options.callTimeoutMs,
        options.onProgress,
      ),
  );
}
