// What the CLI uses of the MCP features beyond connecting and the snapshot: logs, refresh failures,
// permission warnings. One export line in the package index keeps these in one place.
export { permissionRuleWarnings } from '../agent/permission-rule-warnings.js';
export { readMcpServerLog, mcpServerLogPath } from './mcp-server-log.js';
export { readMcpRefreshFailures, type McpRefreshFailure } from './mcp-refresh-failures.js';
