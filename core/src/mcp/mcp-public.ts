// What the CLI uses of the MCP features beyond connecting and the snapshot: logs, refresh failures,
// permission warnings. One export line in the package index keeps these in one place.
export { permissionRuleWarnings } from '../agent/permission-rule-warnings.js';
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
