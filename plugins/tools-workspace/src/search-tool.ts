import type { OpenedWorkspaceEntry, WorkspaceFiles } from '@cw/core/plugin';
import { looksBinary } from './binary-content.js';
import { fsErrorMessage } from './fs-error-message.js';
import { guarded } from './guard-execute.js';
import { DEFAULT_SEARCH_TIMEOUT_MS, type LineMatcher, RegexTimeoutError, startLineMatcher } from './regex-worker.js';
import { displayPath, resolveInWorkspace } from './resolve-in-workspace.js';
import { argumentsObject, label, optionalInteger, optionalString, requiredString } from './tool-arguments.js';
import { fail, ok, type ToolImplementation, type ToolLimits } from './tool-types.js';
import { byName, SKIPPED_FOLDERS } from './walk-order.js';

export const DEFAULT_MAX_RESULTS = 200;
/** Files larger than this are not searched; they are counted in a note instead. */
export const MAX_SEARCHED_FILE_BYTES = 8 * 1024 * 1024;
/** A matching line longer than this is shown cut, with an ellipsis. */
const MAX_SHOWN_LINE_CHARS = 300;

/** search: lines matching a JavaScript regular expression, as `path:line: text`. */
export const searchTool: ToolImplementation = {
  name: 'search',
  description: 'Search workspace files for a regular expression and return matching lines.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Regular expression to search for.' },
      path: { type: 'string', description: 'Directory or file to search; defaults to the workspace root.' },
      max_results: { type: 'integer', minimum: 1, maximum: 1000 },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  readOnly: true,
  summarize: (args) => label(args['pattern']),
  execute: guarded('search', async (rawArgs, context) => {
    const args = argumentsObject(rawArgs);
    if (!args.ok) return fail(args.error);
    const pattern = requiredString(args.value, 'pattern');
    if (!pattern.ok) return fail(pattern.error);
    if (pattern.value === '') return fail('pattern is empty; give a regular expression to search for');
    const requested = optionalString(args.value, 'path');
    if (!requested.ok) return fail(requested.error);
    const max = optionalInteger(args.value, 'max_results', 1, 1000);
    if (!max.ok) return fail(max.error);

    try {
      // Compiled here only to report a syntax error; matching runs in a worker with a time limit.
      new RegExp(pattern.value);
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'it does not parse';
      return fail(`invalid regular expression (JavaScript syntax): ${reason}`);
    }

    const resolved = await resolveInWorkspace(context.workspace, requested.value ?? '.');
    if (!resolved.ok) return fail(resolved.error);
    const { root, real, display } = resolved.path;
    if (!resolved.path.exists) return fail(`${display}: no such file or directory`);

    const timeoutMs = context.limits.searchTimeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
    const matcher = startLineMatcher(pattern.value, timeoutMs);
    const searcher = new Searcher(
      matcher,
      context.files,
      root,
      max.value ?? DEFAULT_MAX_RESULTS,
      context.limits,
      context.signal,
    );
    try {
      const opened = await context.files.open(real);
      try {
        if (opened.info.isDirectory()) await searcher.searchFolder(opened);
        else if (opened.info.isFile()) await searcher.searchFile(opened, true);
        else return fail(`${display} is not a regular file or directory`);
      } finally {
        await opened.handle.close();
      }
    } catch (error) {
      if (error instanceof RegexTimeoutError)
        return fail(`${error.message} (time limit ${timeoutMs} ms); use a simpler pattern or a narrower path`);
      return fail(fsErrorMessage(error, display));
    } finally {
      await matcher.close();
    }
    if (context.signal.aborted) return fail('search was cancelled');
    if (searcher.binaryRequested) return fail(`${display} looks like a binary file; search reads text files only`);
    return ok(searcher.render(pattern.value, display));
  }),
};

class Searcher {
  readonly lines: string[] = [];
  #bytes = 0;
  /** Why the search stopped early, if it did. */
  stopped: 'max_results' | 'limits' | null = null;
  skippedLarge = 0;
  unreadable = 0;
  binaryRequested = false;
  hidden = 0;

  constructor(
    readonly matcher: LineMatcher,
    readonly files: WorkspaceFiles,
    readonly root: string,
    readonly maxResults: number,
    readonly limits: ToolLimits,
    readonly signal: AbortSignal,
  ) {}

  get done(): boolean {
    return this.stopped !== null || this.signal.aborted;
  }

  async searchFolder(folder: OpenedWorkspaceEntry): Promise<void> {
    const { entries, hidden } = await this.files.list(folder);
    this.hidden += hidden;
    entries.sort((a, b) => byName(a.name, b.name));
    for (const entry of entries) {
      if (this.done) return;
      // Symbolic links are not followed: they could lead out of the workspace or round in a loop. Each
      // entry is opened through the folder held open, so a link swapped in since is refused, not followed.
      const isFolder = entry.isDirectory();
      if (isFolder && SKIPPED_FOLDERS.has(entry.name)) continue;
      if (!isFolder && !entry.isFile()) continue;
      try {
        const opened = await this.files.open(this.files.child(folder, entry.name), {
          noFollow: true,
          directory: isFolder,
        });
        try {
          if (isFolder) await this.searchFolder(opened);
          else if (opened.info.isFile()) await this.searchFile(opened, false);
        } finally {
          await opened.handle.close();
        }
      } catch (error) {
        if (error instanceof RegexTimeoutError) throw error;
        this.unreadable++;
      }
    }
  }

  async searchFile(file: OpenedWorkspaceEntry, requested: boolean): Promise<void> {
    if (file.info.size > MAX_SEARCHED_FILE_BYTES) {
      this.skippedLarge++;
      return;
    }
    const bytes = await file.handle.readFile();
    if (looksBinary(bytes)) {
      if (requested) this.binaryRequested = true;
      return;
    }
    const shown = displayPath(this.root, file.real);
    const text = bytes.toString('utf8');
    const lines = text.split('\n');
    // One more than still fits, so a search that has more to show says it stopped.
    for (const index of await this.matcher.match(text, this.maxResults - this.lines.length + 1)) {
      const line = (lines[index] ?? '').replace(/\r$/, '');
      if (this.lines.length >= this.maxResults) {
        this.stopped = 'max_results';
        return;
      }
      if (!this.add(`${shown}:${index + 1}: ${clip(line)}`)) return;
    }
  }

  add(line: string): boolean {
    const size = Buffer.byteLength(line) + 1;
    if (this.lines.length >= this.limits.outputLines || this.#bytes + size > this.limits.outputBytes) {
      this.stopped = 'limits';
      return false;
    }
    this.lines.push(line);
    this.#bytes += size;
    return true;
  }

  render(pattern: string, display: string): string {
    const notes: string[] = [];
    if (this.stopped === 'max_results') {
      notes.push(`[stopped at max_results (${this.maxResults}); narrow the pattern or path to see the rest]`);
    } else if (this.stopped === 'limits') {
      notes.push(`[truncated: output limit reached after ${this.lines.length} matches; narrow the pattern or path]`);
    }
    if (this.skippedLarge > 0) {
      notes.push(`[skipped ${this.skippedLarge} file(s) larger than ${MAX_SEARCHED_FILE_BYTES / 1024 / 1024} MiB]`);
    }
    if (this.hidden > 0) notes.push(`[skipped ${this.hidden} path(s) the sandbox hides]`);
    if (this.unreadable > 0) notes.push(`[${this.unreadable} file(s) or folder(s) could not be read]`);
    const head = this.lines.length === 0 ? [`no matches for /${label(pattern, 200)}/ in ${display}`] : this.lines;
    return [...head, ...notes].join('\n');
  }
}

function clip(line: string): string {
  return line.length <= MAX_SHOWN_LINE_CHARS ? line : `${line.slice(0, MAX_SHOWN_LINE_CHARS)}…`;
}
