import type { ToolDefinition } from './tool-definition.js';

const builtin = { kind: 'builtin' } as const;

/** cw's own agent tools. Schemas only: execution lands with the agent loop. */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = [
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
    origin: builtin,
    deferred: false,
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
    origin: builtin,
    deferred: false,
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
    origin: builtin,
    deferred: false,
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
    origin: builtin,
    deferred: false,
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
    origin: builtin,
    deferred: false,
  },
];
