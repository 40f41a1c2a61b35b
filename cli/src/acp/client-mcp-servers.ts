import type * as acp from '@agentclientprotocol/sdk';
import type { McpServerConfig } from '@cw/core';

// The MCP servers an editor hands a session (`session/new`, `session/load`), as cw's own
// `mcpServers` entries: they join config's for that session's turns only, and reach no config file.
// Their values are read as config's are, so `${env:NAME}` in one is expanded (docs/mcp.md).

// cw's own rule for a server name: it prefixes the server's tools (docs/mcp.md).
const SERVER_NAME = /^(?!__proto__$)[A-Za-z0-9_-]{1,64}$/;

/** A server an editor passed that cw cannot take; the message names neither its command nor its URL. */
export class ClientMcpServerError extends Error {
  override readonly name = 'ClientMcpServerError';
  readonly exitCode = 2;
  readonly safeMessage: string;
  constructor(message: string) {
    super(message);
    this.safeMessage = message;
  }
}

/** The editor's servers as `mcpServers` entries, by name; a later entry of one name wins. */
export function clientMcpServers(servers: readonly acp.McpServer[]): Record<string, McpServerConfig> {
  const entries: Record<string, McpServerConfig> = {};
  servers.forEach((server, at) => {
    if (!SERVER_NAME.test(server.name))
      throw new ClientMcpServerError(
        `MCP server ${at + 1}'s name is not 1 to 64 letters, digits, - or _; cw names its tools after it`,
      );
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      if (server.type === 'sse')
        throw new ClientMcpServerError(
          `MCP server ${server.name} uses SSE, which cw does not speak; give its streamable HTTP URL`,
        );
      entries[server.name] = {
        url: server.url,
        headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])),
        disabled: false,
      };
      return;
    }
    const stdio = server as acp.McpServerStdio;
    entries[server.name] = {
      command: stdio.command,
      args: [...stdio.args],
      env: Object.fromEntries(stdio.env.map((variable) => [variable.name, variable.value])),
      disabled: false,
    };
  });
  return entries;
}
