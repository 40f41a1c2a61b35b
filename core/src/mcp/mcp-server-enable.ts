import { editConfigFile } from '../config/edit-config-file.js';
import { safeIdentifier } from '../redaction/safe-label.js';
import { McpConfigEditError } from './mcp-config-file.js';

/**
 * Sets or clears `disabled` on one server in config.json (a user-scope server), keeping the rest of
 * the file as written; atomic, under a lock. Enabling writes no `disabled: false`: the key goes.
 */
export async function setMcpServerDisabled(home: string, name: string, disabled: boolean): Promise<void> {
  await editConfigFile(home, (current) => {
    const servers =
      typeof current === 'object' && current !== null ? (current as { mcpServers?: unknown }).mcpServers : undefined;
    if (typeof servers !== 'object' || servers === null || !Object.hasOwn(servers, name)) {
      throw new McpConfigEditError(
        `no MCP server named ${safeIdentifier(name)} in config.json (cw mcp list shows them; a project server is changed in the workspace's .mcp.json)`,
      );
    }
    return [{ path: ['mcpServers', name, 'disabled'], value: disabled ? true : undefined }];
  });
}
