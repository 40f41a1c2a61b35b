import type { ProposedFileChange, ToolArguments } from '../tools/tool-contract.js';

// MCP has no annotation for "this call writes this file", so cw reads the arguments the common file
// servers use (@modelcontextprotocol/server-filesystem's write_file and edit_file): a `path` with the
// whole new `content`, or with `edits` of `{ oldText, newText }` (docs/mcp.md, "What an approval shows").
// A call that fits neither shape shows no diff; it is asked about as before.

/** The file change an MCP call's arguments name, or null when they name none. */
export function mcpFileChange(args: ToolArguments): ProposedFileChange | null {
  const path = args['path'];
  if (typeof path !== 'string' || path === '') return null;
  const content = args['content'];
  if (typeof content === 'string') return { path, content };
  const edits = args['edits'];
  if (!Array.isArray(edits) || edits.length === 0) return null;
  const parsed: { oldText: string; newText: string }[] = [];
  for (const edit of edits) {
    if (edit === null || typeof edit !== 'object' || Array.isArray(edit)) return null;
    const { oldText, newText } = edit as { readonly oldText?: unknown; readonly newText?: unknown };
    if (typeof oldText !== 'string' || typeof newText !== 'string') return null;
    parsed.push({ oldText, newText });
  }
  return { path, edits: parsed };
}
