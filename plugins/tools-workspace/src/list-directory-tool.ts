import type { OpenedWorkspaceEntry, WorkspaceFiles } from '@cw/core/plugin';
import { fsErrorMessage } from './fs-error-message.js';
import { guarded } from './guard-execute.js';
import { resolveInWorkspace } from './resolve-in-workspace.js';
import { argumentsObject, label, optionalBoolean, requiredString } from './tool-arguments.js';
import { fail, ok, type ToolImplementation, type ToolLimits } from './tool-types.js';
import { byName, SKIPPED_FOLDERS } from './walk-order.js';

/** list_directory: a folder's entries, sorted, folders with a trailing `/`; recursive on request. */
export const listDirectoryTool: ToolImplementation = {
  name: 'list_directory',
  description: 'List the entries of a workspace directory.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Workspace-relative directory; "." for the root.' },
      recursive: { type: 'boolean', description: 'Descend into subdirectories.' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  readOnly: true,
  summarize: (args) => label(args['path']),
  execute: guarded('list_directory', async (rawArgs, context) => {
    const args = argumentsObject(rawArgs);
    if (!args.ok) return fail(args.error);
    const requested = requiredString(args.value, 'path');
    if (!requested.ok) return fail(requested.error);
    const recursive = optionalBoolean(args.value, 'recursive');
    if (!recursive.ok) return fail(recursive.error);

    const resolved = await resolveInWorkspace(context.workspace, requested.value);
    if (!resolved.ok) return fail(resolved.error);
    const { real, display } = resolved.path;
    if (!resolved.path.exists) return fail(`${display}: no such directory`);
    let folder: OpenedWorkspaceEntry;
    try {
      folder = await context.files.open(real);
    } catch (error) {
      return fail(fsErrorMessage(error, display));
    }
    const listing = new Listing(context.files, context.limits, context.signal);
    try {
      if (!folder.info.isDirectory()) return fail(`${display} is not a directory; use read_file to read a file`);
      await listing.walk(folder, '', recursive.value === true);
    } catch (error) {
      // Only the top folder's failure reaches here; deeper ones are noted per entry.
      return fail(fsErrorMessage(error, display));
    } finally {
      await folder.handle.close();
    }
    if (context.signal.aborted) return fail('list_directory was cancelled');
    return ok(listing.render(display));
  }),
};

class Listing {
  readonly lines: string[] = [];
  #bytes = 0;
  truncated = false;
  skippedSeen = false;
  linkSeen = false;
  hiddenSeen = false;

  constructor(
    readonly files: WorkspaceFiles,
    readonly limits: ToolLimits,
    readonly signal: AbortSignal,
  ) {}

  /** Adds one line if it fits; false once the listing is full. */
  add(line: string): boolean {
    const size = Buffer.byteLength(line) + 1;
    if (this.lines.length >= this.limits.outputLines || this.#bytes + size > this.limits.outputBytes) {
      this.truncated = true;
      return false;
    }
    this.lines.push(line);
    this.#bytes += size;
    return true;
  }

  /** Lists an opened folder under the display prefix `prefix`, depth first, each level sorted. */
  async walk(folder: OpenedWorkspaceEntry, prefix: string, recursive: boolean): Promise<void> {
    const { entries, hidden } = await this.files.list(folder);
    if (hidden > 0) this.hiddenSeen = true;
    entries.sort((a, b) => byName(a.name, b.name));
    for (const entry of entries) {
      if (this.truncated || this.signal.aborted) return;
      const name = prefix + entry.name;
      if (!entry.isDirectory()) {
        const link = entry.isSymbolicLink();
        if (link) this.linkSeen = true;
        if (!this.add(link ? `${name}@` : name)) return;
        continue;
      }
      if (!this.add(`${name}/`)) return;
      if (!recursive) continue;
      if (SKIPPED_FOLDERS.has(entry.name)) {
        this.skippedSeen = true;
        continue;
      }
      try {
        // Entered through the folder held open, never following a link: what is listed is what was checked.
        const child = await this.files.open(this.files.child(folder, entry.name), { noFollow: true, directory: true });
        try {
          await this.walk(child, `${name}/`, true);
        } finally {
          await child.handle.close();
        }
      } catch (error) {
        this.add(`  [${fsErrorMessage(error, `${name}/`)}]`);
      }
    }
  }

  render(display: string): string {
    if (this.lines.length === 0 && !this.truncated) return `[${display} is empty]`;
    const notes: string[] = [];
    if (this.truncated) {
      notes.push(
        `[truncated: showing the first ${this.lines.length} entries; list a subdirectory or drop recursive to see more]`,
      );
    }
    if (this.linkSeen) notes.push('[a trailing @ marks a symbolic link]');
    if (this.hiddenSeen) notes.push('[entries the sandbox hides (its deny list and credential folders) are left out]');
    if (this.skippedSeen) notes.push('[.git and node_modules folders are listed but not descended into]');
    return [...this.lines, ...notes].join('\n');
  }
}
