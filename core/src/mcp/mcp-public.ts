// What hosts use to manage MCP servers (the `cw mcp` commands, an interactive session's /mcp): the
// config entries, the tool snapshot, refreshing, logs, project scope and prompts. The package index
// exports it as one namespace, `mcp` (docs/mcp.md).
export { readMcpSnapshot, emptyMcpSnapshot, McpSnapshotError } from './mcp-snapshot-store.js';
export { mcpServerSnapshotStatus } from './mcp-snapshot-state.js';
export { refreshMcpSnapshot } from './refresh-mcp-snapshot.js';
export { mcpTransportOf, mcpServerTarget } from './mcp-server-target.js';
export { readMcpServers, addMcpServer, removeMcpServer, McpConfigEditError } from './mcp-config-file.js';
export { readMcpServerLog, mcpServerLogPath } from './mcp-server-log.js';
export { readMcpRefreshFailures, type McpRefreshFailure } from './mcp-refresh-failures.js';
export {
  readEffectiveMcpServers,
  readProjectMcpFile,
  trustProjectMcp,
  ProjectMcpError,
  PROJECT_MCP_FILE,
  type McpServerScope,
} from './project-mcp-servers.js';
export { addProjectMcpServer } from './project-mcp-file-edit.js';
export { setMcpServerDisabled } from './mcp-server-enable.js';
export { listMcpPrompts, resolveMcpPrompt, promptText, type McpPromptListing } from './mcp-prompts.js';
export { mcpServerFingerprint } from './mcp-server-fingerprint.js';
