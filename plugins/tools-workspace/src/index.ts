import type { PluginApi } from '@cw/core/plugin';
import { editFileTool } from './edit-file-tool.js';
import { listDirectoryTool } from './list-directory-tool.js';
import { readFileTool } from './read-file-tool.js';
import { searchTool } from './search-tool.js';
import { shellTool } from './shell-tool.js';
import type { ToolImplementation } from './tool-types.js';

export { editFileTool, listDirectoryTool, readFileTool, searchTool, shellTool };
export type { ToolArguments, ToolContext, ToolImplementation, ToolLimits, ToolOutcome } from './tool-types.js';

/** The five workspace tools in catalog order; the order is part of the prompt, so it is pinned. */
export const WORKSPACE_TOOLS: readonly ToolImplementation[] = [
  readFileTool,
  listDirectoryTool,
  searchTool,
  editFileTool,
  shellTool,
];

/** Registers the workspace tools, in catalog order. */
export function register(api: PluginApi): void {
  for (const tool of WORKSPACE_TOOLS) api.addTool(tool);
}
