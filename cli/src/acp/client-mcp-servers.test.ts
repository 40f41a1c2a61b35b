import { describe, expect, it } from 'vitest';
import { clientMcpServers } from './client-mcp-servers.js';

describe("an editor's MCP servers", () => {
  it('become mcpServers entries: stdio by command, http by url, env and headers as records', () => {
    expect(
      clientMcpServers([
        { name: 'files', command: '/usr/bin/srv', args: ['--x'], env: [{ name: 'TOKEN', value: 'v' }] },
        { type: 'http', name: 'web', url: 'https://mcp.example.com/mcp', headers: [{ name: 'X-A', value: 'b' }] },
      ]),
    ).toEqual({
      files: { command: '/usr/bin/srv', args: ['--x'], env: { TOKEN: 'v' }, disabled: false },
      web: { url: 'https://mcp.example.com/mcp', headers: { 'X-A': 'b' }, disabled: false },
    });
  });

  it('refuses a name cw cannot prefix tools with, and SSE, naming neither command nor URL', () => {
    expect(() => clientMcpServers([{ name: 'has space', command: '/secret/path', args: [], env: [] }])).toThrow(
      /^MCP server 1's name is not/,
    );
    const sse = () => clientMcpServers([{ type: 'sse', name: 'old', url: 'https://h/secret-path', headers: [] }]);
    expect(sse).toThrow('MCP server old uses SSE');
    expect(sse).not.toThrow(/secret/);
  });
});
