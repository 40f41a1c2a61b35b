import { safeErrorText } from '../redaction/index.js';
import type { ToolImplementation } from '../tools/tool-contract.js';
import type { McpConnection } from './connect-mcp-server.js';
import { mcpCallPreview, type McpToolHints } from './mcp-call-preview.js';
import { mcpFileChange } from './mcp-file-change.js';
import type { McpSnapshotTool } from './mcp-snapshot-store.js';
import type { McpToolName } from './mcp-tool-names.js';

/**
 * The executor of one MCP tool under its sent name. Only the server's own readOnlyHint makes it
 * read-only; its approval question shows the annotations and a bounded preview of the arguments;
 * `mcp__<server>__*` rules name it by its server.
 */
export function mcpToolImplementation(
  entry: McpToolName,
  tool: McpSnapshotTool | undefined,
  /** The server's connection: open already, or started on this first call (docs/mcp.md, "When servers start"). */
  connection: (signal: AbortSignal) => Promise<McpConnection | undefined>,
  callTimeoutMs: number,
  /** Shows a long call's progress notifications (the sent name, one redacted line). */
  onProgress?: (toolName: string, line: string) => void,
): ToolImplementation {
  const hints = tool?.annotations as McpToolHints | undefined;
  return {
    name: entry.wireName,
    description: tool?.description ?? '',
    inputSchema: tool?.inputSchema ?? { type: 'object' },
    readOnly: hints?.readOnlyHint === true,
    mcpServer: entry.server,
    summarize: () => `${entry.server}/${entry.tool}`,
    describeForApproval: (args) => mcpCallPreview(args, hints),
    // A server that says its tool only reads is taken at its word: no diff is read for it.
    ...(hints?.readOnlyHint === true ? {} : { fileChange: mcpFileChange }),
    execute: async (args, context) => {
      let open: McpConnection | undefined;
      try {
        open = await connection(context.signal);
      } catch (error) {
        const problem = safeErrorText(error instanceof Error ? error.message : String(error));
        return { status: 'error', content: `the MCP server ${entry.server} could not be started: ${problem}` };
      }
      if (!open) return { status: 'error', content: `the MCP server ${entry.server} is not connected` };
      // A Ctrl-C that landed while the server started: the call is never sent (docs/agent-loop.md, "Ctrl-C").
      if (context.signal.aborted) return { status: 'error', content: 'cancelled before the call was sent' };
      const progress = onProgress ? (line: string) => onProgress(entry.wireName, line) : undefined;
      const result = await open.callTool(entry.tool, args, context.signal, callTimeoutMs, progress);
      return {
        status: result.isError ? 'error' : 'ok',
        content: result.content,
        ...(result.images.length > 0 ? { images: result.images } : {}),
      };
    },
  };
}
