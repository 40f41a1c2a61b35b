import type { FileHandle } from 'node:fs/promises';
import { BINARY_SNIFF_BYTES, looksBinary } from './binary-content.js';
import { utf8Head } from './bound-output.js';
import { fsErrorMessage } from './fs-error-message.js';
import { guarded } from './guard-execute.js';
import { resolveInWorkspace } from './resolve-in-workspace.js';
import { argumentsObject, label, optionalInteger, requiredString } from './tool-arguments.js';
import { fail, ok, type ToolImplementation, type ToolLimits, type ToolOutcome } from './tool-types.js';

const CHUNK_BYTES = 64 * 1024;

/** read_file: a UTF-8 text file, or a line range of it, within the output limits. */
export const readFileTool: ToolImplementation = {
  name: 'read_file',
  description: 'Read a UTF-8 text file from the workspace, optionally a line range.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Workspace-relative path of the file.' },
      start_line: { type: 'integer', minimum: 1, description: 'First line to return (1-based).' },
      end_line: { type: 'integer', minimum: 1, description: 'Last line to return (inclusive).' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  readOnly: true,
  summarize: (args) => label(args['path']),
  execute: guarded('read_file', async (rawArgs, context) => {
    const args = argumentsObject(rawArgs);
    if (!args.ok) return fail(args.error);
    const requested = requiredString(args.value, 'path');
    if (!requested.ok) return fail(requested.error);
    const start = optionalInteger(args.value, 'start_line', 1);
    if (!start.ok) return fail(start.error);
    const end = optionalInteger(args.value, 'end_line', 1);
    if (!end.ok) return fail(end.error);
    const first = start.value ?? 1;
    if (end.value !== undefined && end.value < first) {
      return fail(`end_line (${end.value}) is before start_line (${first})`);
    }

    const resolved = await resolveInWorkspace(context.workspace, requested.value);
    if (!resolved.ok) return fail(resolved.error);
    const { real, display } = resolved.path;
    if (!resolved.path.exists) return fail(`${display}: file not found; use list_directory or search to find it`);
    // What was resolved above is opened once and judged on its descriptor: a link swapped in since is refused.
    let scan: LineScan;
    try {
      const opened = await context.files.open(real);
      try {
        if (opened.info.isDirectory()) return fail(`${display} is a directory; use list_directory to see its entries`);
        if (!opened.info.isFile()) return fail(`${display} is not a regular file`);
        scan = await scanLines(opened.handle, first, end.value ?? Number.POSITIVE_INFINITY, context.limits);
      } finally {
        await opened.handle.close();
      }
    } catch (error) {
      return fail(fsErrorMessage(error, display));
    }
    if (scan.binary) {
      return fail(`${display} looks like a binary file (a NUL byte in its first 8 KiB); read_file reads text only`);
    }
    return render(scan, display, first, end.value, context.limits);
  }),
};

interface LineScan {
  readonly binary: boolean;
  /** The lines shown, from `first` on. */
  readonly lines: readonly string[];
  /** Lines in the whole file. */
  readonly total: number;
  /** Whether lines of the range were left out for the limits. */
  readonly truncated: boolean;
  /** Whether the one line shown is only the start of a line longer than the byte limit. */
  readonly cutLine: boolean;
}

/** Streams the file once: keeps the lines of the range within the limits, counts every line. */
async function scanLines(handle: FileHandle, first: number, last: number, limits: ToolLimits): Promise<LineScan> {
  const shown: string[] = [];
  let shownBytes = 0;
  let truncated = false;
  let cutLine = false;
  let lineNumber = 1;
  let current: Buffer[] = [];
  let currentBytes = 0;
  let lineHasBytes = false;
  // One byte over the remaining budget is enough to know a line does not fit.
  const keepLimit = (): number => limits.outputBytes - shownBytes + 1;
  const inRange = (): boolean => !truncated && lineNumber >= first && lineNumber <= last;

  const finishLine = (): void => {
    if (inRange()) {
      const line = Buffer.concat(current, currentBytes);
      if (shown.length >= limits.outputLines) {
        truncated = true;
      } else if (shownBytes + line.length + 1 > limits.outputBytes) {
        if (shown.length === 0) {
          shown.push(utf8Head(line, limits.outputBytes).toString('utf8'));
          cutLine = true;
        }
        truncated = true;
      } else {
        shown.push(line.toString('utf8').replace(/\r$/, ''));
        shownBytes += line.length + 1;
      }
    }
    current = [];
    currentBytes = 0;
    lineHasBytes = false;
  };

  const buffer = Buffer.alloc(CHUNK_BYTES);
  let position = 0;
  let sniffed = Buffer.alloc(0);
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    if (position < BINARY_SNIFF_BYTES) {
      sniffed = Buffer.concat([sniffed, chunk.subarray(0, BINARY_SNIFF_BYTES - position)]);
      if (looksBinary(sniffed)) return { binary: true, lines: [], total: 0, truncated: false, cutLine: false };
    }
    position += bytesRead;
    let offset = 0;
    while (offset < chunk.length) {
      const newline = chunk.indexOf(10, offset);
      const segmentEnd = newline === -1 ? chunk.length : newline;
      if (segmentEnd > offset) lineHasBytes = true;
      if (inRange() && currentBytes < keepLimit()) {
        const piece = chunk.subarray(offset, Math.min(segmentEnd, offset + keepLimit() - currentBytes));
        current.push(Buffer.from(piece));
        currentBytes += piece.length;
      }
      if (newline === -1) break;
      finishLine();
      lineNumber++;
      offset = newline + 1;
    }
  }
  if (lineHasBytes) {
    finishLine();
    lineNumber++;
  }
  return { binary: false, lines: shown, total: lineNumber - 1, truncated, cutLine };
}

function render(
  scan: LineScan,
  display: string,
  first: number,
  requestedLast: number | undefined,
  limits: ToolLimits,
): ToolOutcome {
  if (scan.total === 0) return ok(`[${display} is empty]`);
  if (first > scan.total) {
    return fail(`start_line ${first} is past the end of ${display}, which has ${scan.total} lines`);
  }
  const body = scan.lines.join('\n');
  if (scan.cutLine) {
    return ok(
      `${body}\n[truncated: line ${first} is longer than the ${limits.outputBytes}-byte output limit; showing its start only]`,
    );
  }
  const lastShown = first + scan.lines.length - 1;
  if (scan.truncated) {
    return ok(
      `${body}\n[truncated: showing lines ${first}-${lastShown} of ${scan.total}; use start_line/end_line to read more]`,
    );
  }
  const last = Math.min(requestedLast ?? scan.total, scan.total);
  if (first > 1 || last < scan.total) return ok(`${body}\n[showing lines ${first}-${last} of ${scan.total}]`);
  return ok(body);
}
