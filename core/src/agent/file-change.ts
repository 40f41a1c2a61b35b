import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ProposedFileChange, ToolArguments, ToolContext, ToolImplementation } from '../tools/tool-contract.js';
import { redactSecrets } from '../redaction/redact-secrets.js';
import { countChanges, type DiffHunk, diffLines } from '../text/unified-diff.js';

// What a call would change in a file, computed before it runs (docs/agent-loop.md, "What an approval
// shows"): the old text is read through the workspace's descriptor-checked opener, so a link out of
// the workspace or a hidden file is never read; such a call, or one whose edit does not apply, shows
// no diff and runs (or is refused) as it would have.

/** Files larger than this are not diffed: the approval shows the call without one. */
const MAX_DIFFED_BYTES = 4 * 1024 * 1024;

/** How many lines one call adds and removes in one file; `path` is workspace-relative, `/`-separated. */
export interface FileChangeSummary {
  readonly path: string;
  readonly added: number;
  readonly removed: number;
}

/**
 * The change a call would make to one file, as hunks of a unified diff; `created` when the file is new.
 * The hunks are for showing: a line holding what looks like a secret has it withheld.
 */
export interface FileDiff extends FileChangeSummary {
  readonly created: boolean;
  readonly hunks: readonly DiffHunk[];
}

/** The diff a call would make, or null when its tool names no file change or it cannot be computed safely. */
export async function proposedDiff(
  tool: ToolImplementation,
  args: ToolArguments,
  context: Pick<ToolContext, 'workspace' | 'files'>,
): Promise<FileDiff | null> {
  let proposed: ProposedFileChange | null;
  try {
    proposed = tool.fileChange?.(args) ?? null;
  } catch {
    return null;
  }
  if (proposed === null || proposed.path === '' || proposed.path.includes('\0')) return null;
  const target = resolve(context.workspace, proposed.path);
  const shown = relative(context.workspace, target);
  if (shown === '' || shown === '..' || shown.startsWith(`..${sep}`) || isAbsolute(shown)) return null;
  const old = await readOld(target, context.files);
  if (old === null) return null;
  const next = 'content' in proposed ? proposed.content : applyEdits(old.text, proposed.edits);
  if (next === null) return null;
  const hunks = diffLines(old.text, next);
  const shownHunks = hunks.map((hunk) => ({
    ...hunk,
    lines: hunk.lines.map((line) => ({ kind: line.kind, text: redactSecrets(line.text) })),
  }));
  return { path: shown.split(sep).join('/'), created: !old.exists, ...countChanges(hunks), hunks: shownHunks };
}

/** The file's text now: empty for a file that does not exist yet; null when it may not or cannot be read. */
async function readOld(
  target: string,
  files: ToolContext['files'],
): Promise<{ readonly text: string; readonly exists: boolean } | null> {
  let opened: Awaited<ReturnType<ToolContext['files']['open']>>;
  try {
    opened = await files.open(target);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { text: '', exists: false } : null;
  }
  try {
    if (!opened.info.isFile() || opened.info.size > MAX_DIFFED_BYTES) return null;
    const bytes = await opened.handle.readFile();
    const text = bytes.toString('utf8');
    if (bytes.includes(0) || !Buffer.from(text, 'utf8').equals(bytes)) return null;
    return { text, exists: true };
  } catch {
    return null;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

/** Each edit replaces its one occurrence, in order (in the file's CRLF ends when it has them); null when one does not apply. */
function applyEdits(
  text: string,
  edits: readonly { readonly oldText: string; readonly newText: string }[],
): string | null {
  let out = text;
  for (const edit of edits) {
    let { oldText, newText } = edit;
    if (oldText === '') return null;
    if (!out.includes(oldText) && out.includes('\r\n') && !oldText.includes('\r')) {
      oldText = oldText.replace(/\n/g, '\r\n');
      newText = newText.replace(/\r?\n/g, '\r\n');
    }
    const at = out.indexOf(oldText);
    if (at === -1 || out.indexOf(oldText, at + 1) !== -1) return null;
    out = out.slice(0, at) + newText + out.slice(at + oldText.length);
  }
  return out;
}
