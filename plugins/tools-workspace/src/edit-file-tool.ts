import type { OpenedWorkspaceEntry } from '@cw/core/plugin';
import { looksBinary } from './binary-content.js';
import { fsErrorMessage } from './fs-error-message.js';
import { guarded } from './guard-execute.js';
import { displayPath, resolveInWorkspace } from './resolve-in-workspace.js';
import { argumentsObject, label, requiredString } from './tool-arguments.js';
import { fail, ok, type ToolContext, type ToolImplementation, type ToolOutcome } from './tool-types.js';

/** Files larger than this are not edited in memory. */
export const MAX_EDITED_FILE_BYTES = 16 * 1024 * 1024;

/** edit_file: replaces the one occurrence of old_text with new_text, written atomically. */
export const editFileTool: ToolImplementation = {
  name: 'edit_file',
  description: 'Replace one exact occurrence of a string in a file.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Workspace-relative path of the file.' },
      old_text: { type: 'string', description: 'Text to replace; must occur exactly once.' },
      new_text: { type: 'string', description: 'Replacement text.' },
    },
    required: ['path', 'old_text', 'new_text'],
    additionalProperties: false,
  },
  readOnly: false,
  summarize: (args) => label(args['path']),
  // The approval shows this replacement as a diff of the file (docs/agent-loop.md).
  fileChange: (args) =>
    typeof args['path'] === 'string' && typeof args['old_text'] === 'string' && typeof args['new_text'] === 'string'
      ? { path: args['path'], edits: [{ oldText: args['old_text'], newText: args['new_text'] }] }
      : null,
  execute: guarded('edit_file', async (rawArgs, context) => {
    const args = argumentsObject(rawArgs);
    if (!args.ok) return fail(args.error);
    const requested = requiredString(args.value, 'path');
    if (!requested.ok) return fail(requested.error);
    const oldArg = requiredString(args.value, 'old_text');
    if (!oldArg.ok) return fail(oldArg.error);
    const newArg = requiredString(args.value, 'new_text');
    if (!newArg.ok) return fail(newArg.error);
    if (oldArg.value === '') return fail('old_text is empty; give the exact text to replace');
    if (oldArg.value === newArg.value) return fail('old_text and new_text are the same; nothing would change');

    const resolved = await resolveInWorkspace(context.workspace, requested.value);
    if (!resolved.ok) return fail(resolved.error);
    const { root, real, display } = resolved.path;
    // A git folder's config, hooks and links are refused before anything is read, by the name asked for
    // and by the real one (a link to .git); the write itself checks the descriptor's path again.
    const refusal = context.files.writeRefusal(display) ?? context.files.writeRefusal(displayPath(root, real));
    if (refusal !== null) return fail(refusal);
    if (!resolved.path.exists) return fail(`${display}: file not found; edit_file only changes existing files`);

    let opened: OpenedWorkspaceEntry;
    try {
      opened = await context.files.open(real);
    } catch (error) {
      return fail(fsErrorMessage(error, display));
    }
    try {
      return await edit(opened, display, oldArg.value, newArg.value, context.files);
    } finally {
      await opened.handle.close();
    }
  }),
};

/** Reads the opened file, replaces the one occurrence and writes it back where it was opened. */
async function edit(
  opened: OpenedWorkspaceEntry,
  display: string,
  requestedOld: string,
  requestedNew: string,
  files: ToolContext['files'],
): Promise<ToolOutcome> {
  const { info } = opened;
  if (info.isDirectory()) return fail(`${display} is a directory, not a file`);
  if (!info.isFile()) return fail(`${display} is not a regular file`);
  if (info.size > MAX_EDITED_FILE_BYTES) {
    return fail(`${display} is larger than ${MAX_EDITED_FILE_BYTES / 1024 / 1024} MiB; edit it with the shell`);
  }
  let bytes: Buffer;
  try {
    bytes = await opened.handle.readFile();
  } catch (error) {
    return fail(fsErrorMessage(error, display));
  }
  if (looksBinary(bytes)) return fail(`${display} looks like a binary file; edit_file changes text files only`);
  const content = bytes.toString('utf8');
  if (!Buffer.from(content, 'utf8').equals(bytes)) {
    return fail(`${display} is not valid UTF-8; edit_file would corrupt it`);
  }

  let oldText = requestedOld;
  let newText = requestedNew;
  let count = occurrences(content, oldText);
  // A file with CRLF line ends: the model writes '\n'; match and write in the file's own convention.
  if (count === 0 && content.includes('\r\n') && oldText.includes('\n') && !oldText.includes('\r')) {
    const crlfOld = oldText.replace(/\n/g, '\r\n');
    const crlfCount = occurrences(content, crlfOld);
    if (crlfCount > 0) {
      oldText = crlfOld;
      newText = newText.replace(/\r?\n/g, '\r\n');
      count = crlfCount;
    }
  }
  if (count === 0) {
    return fail(
      `old_text not found in ${display}; read the file and copy the exact text, including whitespace and indentation`,
    );
  }
  if (count > 1) {
    return fail(`old_text occurs ${count} times in ${display}; include more context so it matches exactly once`);
  }
  const at = content.indexOf(oldText);
  const updated = content.slice(0, at) + newText + content.slice(at + oldText.length);
  try {
    await files.replace(opened, updated);
  } catch (error) {
    return fail(fsErrorMessage(error, display));
  }
  return ok(`edited ${display}: -${lineCount(oldText)} +${lineCount(newText)} lines`);
}

/** How many times `needle` occurs in `haystack`, overlapping occurrences included. */
export function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

/** Lines in a piece of text: a trailing newline ends the last line rather than starting one. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const pieces = text.split('\n').length;
  return text.endsWith('\n') ? pieces - 1 : pieces;
}
