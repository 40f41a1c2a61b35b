import type { ToolDefinition } from '../tools/tool-definition.js';
import type { McpSnapshotServer } from './mcp-snapshot-state.js';
import { mcpToolNames, type McpToolName } from './mcp-tool-names.js';

/** The MCP part of a turn's catalog, and how each sent name maps back to its server and tool. */
export interface McpCatalog {
  readonly tools: readonly ToolDefinition[];
  readonly names: readonly McpToolName[];
}

/**
 * Turns the servers' tools into catalog entries under their namespaced, encoded names. `taken` holds
 * the names already in the catalog (the plugins' tools), which MCP tools never shadow.
 */
export function mcpCatalog(servers: readonly McpSnapshotServer[], taken: ReadonlySet<string>): McpCatalog {
  const names = mcpToolNames(servers, taken);
  const byPair = new Map(
    servers.flatMap((server) => server.tools.map((tool) => [`${server.name}\u0000${tool.name}`, tool] as const)),
  );
  const tools = names.map((entry): ToolDefinition => {
    const tool = byPair.get(`${entry.server}\u0000${entry.tool}`);
    return {
      name: entry.wireName,
      description: tool?.description ?? '',
      input_schema: tool?.inputSchema ?? { type: 'object' },
      origin: { kind: 'mcp', server: entry.server },
      deferred: false,
    };
  });
  return { tools, names };
}
