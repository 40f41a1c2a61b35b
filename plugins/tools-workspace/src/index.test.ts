import type { PluginApi } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { workspaceFiles } from '../../../core/src/sandbox/workspace-files.js';
import { register, WORKSPACE_TOOLS } from './index.js';
import type { ToolImplementation } from './tool-types.js';

// The definitions as cw shipped them before tools moved into this plugin. Names, descriptions and
// schemas reach the prompt, so they are pinned byte for byte, key order included.
const PINNED_DEFINITIONS = [
  {
    name: 'read_file',
    description: 'Read a UTF-8 text file from the workspace, optionally a line range.',
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Workspace-relative path of the file.' },
        start_line: { type: 'integer', minimum: 1, description: 'First line to return (1-based).' },
        end_line: { type: 'integer', minimum: 1, description: 'Last line to return (inclusive).' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'list_directory',
    description: 'List the entries of a workspace directory.',
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Workspace-relative directory; "." for the root.' },
        recursive: { type: 'boolean', description: 'Descend into subdirectories.' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'search',
    description: 'Search workspace files for a regular expression and return matching lines.',
    input_schema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Regular expression to search for.' },
        path: { type: 'string', description: 'Directory or file to search; defaults to the workspace root.' },
        max_results: { type: 'integer', minimum: 1, maximum: 1000 },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
  {
    name: 'edit_file',
    description: 'Replace one exact occurrence of a string in a file.',
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Workspace-relative path of the file.' },
        old_text: { type: 'string', description: 'Text to replace; must occur exactly once.' },
        new_text: { type: 'string', description: 'Replacement text.' },
      },
      required: ['path', 'old_text', 'new_text'],
      additionalProperties: false,
    },
  },
  {
    name: 'shell',
    description: 'Run a shell command in the workspace and return its output and exit code.',
    input_schema: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line to run.' },
        timeout_seconds: { type: 'integer', minimum: 1, maximum: 600 },
      },
      required: ['command'],
      additionalProperties: false,
    },
  },
];

describe('@cw/tools-workspace', () => {
  it('defines the five tools byte for byte as pinned, in catalog order', () => {
    const actual = WORKSPACE_TOOLS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    }));
    expect(JSON.stringify(actual)).toBe(JSON.stringify(PINNED_DEFINITIONS));
  });

  it('registers the five tools in order through addTool', async () => {
    const added: ToolImplementation[] = [];
    const api = { addTool: (tool: ToolImplementation) => added.push(tool) } as unknown as PluginApi;
    await register(api);
    expect(added).toEqual([...WORKSPACE_TOOLS]);
    expect(added.map((tool) => tool.name)).toEqual(['read_file', 'list_directory', 'search', 'edit_file', 'shell']);
  });

  it('marks only the reading tools read-only, and only shell as a command tool', () => {
    expect(WORKSPACE_TOOLS.map((tool) => tool.readOnly)).toEqual([true, true, true, false, false]);
    expect(WORKSPACE_TOOLS.map((tool) => tool.commandOf !== undefined)).toEqual([false, false, false, false, true]);
    expect(WORKSPACE_TOOLS.every((tool) => typeof tool.summarize === 'function')).toBe(true);
  });

  it('turns arguments that are not an object into an error, never a throw', async () => {
    const context = {
      workspace: '/nonexistent-cw-workspace',
      signal: new AbortController().signal,
      env: {},
      limits: { outputBytes: 100, outputLines: 10, commandTimeoutMs: 1000 },
      files: workspaceFiles('/nonexistent-cw-workspace', []),
    };
    for (const tool of WORKSPACE_TOOLS) {
      const outcome = await tool.execute(null as never, context);
      expect(outcome).toEqual({ status: 'error', content: 'arguments must be a JSON object' });
    }
  });
});
