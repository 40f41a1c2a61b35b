import type { CommandSandbox } from '../../sandbox/command-sandbox.js';
import type { CwConfig } from '../../config/cw-config.js';
import { mcpCatalog } from '../../mcp/mcp-catalog.js';
import { mcpSnapshotState } from '../../mcp/mcp-snapshot-state.js';
import { readMcpSnapshot } from '../../mcp/mcp-snapshot-store.js';
import { safeErrorText } from '../../redaction/index.js';
import type { ToolImplementation } from '../../tools/tool-contract.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import type { McpSessionPool } from './mcp-session-pool.js';

/**
 * The executors of the stored snapshot's MCP tools for a turn of an interactive session: the
 * snapshot already offers the tools (as a preview shows them), so no server starts until the model
 * calls one of its tools; then it stays up for the session. Null when the snapshot does not match
 * the config: then the servers are started and listed as a one-off send does.
 */
export async function lazyMcpTools(options: {
  readonly home: string;
  readonly config: CwConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly pluginTools: readonly ToolDefinition[];
  readonly pool: McpSessionPool;
  readonly callTimeoutMs: number;
  /** Where servers with `"sandbox": true` run (docs/mcp.md); without it such a server is not started. */
  readonly sandbox?: CommandSandbox;
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
  return catalog.names.map((entry): ToolImplementation => {
    const tool = byPair.get(`${entry.server}\u0000${entry.tool}`);
    const annotations = tool?.annotations as { readOnlyHint?: unknown } | undefined;
    return {
      name: entry.wireName,
      description: tool?.description ?? '',
      inputSchema: tool?.inputSchema ?? { type: 'object' },
      // Only a server's own readOnlyHint makes an MCP tool read-only; anything else may act.
      readOnly: annotations?.readOnlyHint === true,
      summarize: () => `${entry.server}/${entry.tool}`,
      execute: async (args, context) => {
        const server = options.config.mcpServers[entry.server];
        if (server === undefined)
          return { status: 'error', content: `the MCP server ${entry.server} is not configured` };
        let connection: Awaited<ReturnType<McpSessionPool['connect']>>;
        try {
          connection = await options.pool.connect(entry.server, server, {
            env: options.env,
            home: options.home,
            signal: context.signal,
            ...(options.sandbox ? { sandbox: options.sandbox } : {}),
          });
        } catch (error) {
          const problem = safeErrorText(error instanceof Error ? error.message : String(error));
          return { status: 'error', content: `the MCP server ${entry.server} could not be started: ${problem}` };
        }
        const result = await connection.callTool(entry.tool, args, context.signal, options.callTimeoutMs);
        return { status: result.isError ? 'error' : 'ok', content: result.content };
      },
    };
  });
}
