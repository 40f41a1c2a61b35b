import { describe, expect, it } from 'vitest';
import { workspaceFiles } from '../sandbox/workspace-files.js';
import type { McpConnection } from './connect-mcp-server.js';
import { mcpToolImplementation } from './mcp-tool-implementation.js';

describe('an MCP tool and a Ctrl-C while its server starts', () => {
  it('never sends the call', async () => {
    const controller = new AbortController();
    const sent: string[] = [];
    const connection = {
      callTool: async (name: string) => {
        sent.push(name);
        return { isError: false, content: 'done', images: [] };
      },
    } as unknown as McpConnection;
    const tool = mcpToolImplementation(
      { server: 'deploy', tool: 'ship', wireName: 'mcp__deploy__ship' } as never,
      undefined,
      async () => {
        // The server comes up just as the person presses Ctrl-C.
        controller.abort();
        return connection;
      },
      1_000,
    );
    const outcome = await tool.execute(
      {},
      {
        workspace: '/nonexistent',
        signal: controller.signal,
        env: {},
        files: workspaceFiles('/nonexistent', []),
        limits: { outputBytes: 1024, outputLines: 10, commandTimeoutMs: 1_000 },
      },
    );
    expect(sent).toEqual([]);
    expect(outcome.status).toBe('error');
    expect(outcome.content).toContain('cancelled');
  });
});
