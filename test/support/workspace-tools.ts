// The built-in tools as catalog definitions, read from the plugin that registers them, for tests
// that need a realistic catalog without loading plugins.
import type { ToolDefinition } from '../../core/src/tools/tool-definition.js';
import { WORKSPACE_TOOLS } from '../../plugins/tools-workspace/src/index.js';

/** The five built-in workspace tools, as the registry lists them. */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = WORKSPACE_TOOLS.map((tool) => ({
  name: tool.name,
  description: tool.description,
  input_schema: tool.inputSchema,
  origin: { kind: 'plugin', plugin: '@cw/tools-workspace' },
  deferred: false,
}));
