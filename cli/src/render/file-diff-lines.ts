import type { AskedCall, ToolCallRecord } from '@cw/core';

// How a file change looks on a terminal (docs/cli.md, "What an approval shows"): a unified diff
// before the approval, coloured (green +, red −, cyan hunk headers) when colour is on, plain under
// NO_COLOR or off a terminal; after the call, one `path +N −M` per file. The path is the workspace-
// relative one the core computed; every line crosses terminalSafe, the secrets were withheld by the core.

/** The diff of a proposed change, as data. */
export type FileDiff = NonNullable<AskedCall['change']>;

/** The longest diff shown in full; the rest is counted, so a rewrite of a large file stays readable. */
const MAX_SHOWN_LINES = 200;

const GREEN = '\u001b[32m';
const RED = '\u001b[31m';
const CYAN = '\u001b[36m';
const BOLD = '\u001b[1m';
const RESET = '\u001b[0m';

/** The diff's lines, without line ends, coloured when `color`. */
export function fileDiffLines(diff: FileDiff, color: boolean, safe: (text: string) => string): string[] {
  const paint = (code: string, text: string): string => (color ? `${code}${text}${RESET}` : text);
  const path = safe(diff.path);
  const out = [paint(BOLD, diff.created ? `--- /dev/null` : `--- a/${path}`), paint(BOLD, `+++ b/${path}`)];
  let shown = 0;
  let left = 0;
  for (const hunk of diff.hunks) {
    for (const [index, line] of [null, ...hunk.lines].entries()) {
      if (shown >= MAX_SHOWN_LINES) {
        if (index > 0) left++;
        continue;
      }
      shown++;
      if (line === null) {
        out.push(paint(CYAN, `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`));
        continue;
      }
      const text = `${line.kind}${safe(line.text.replace(/\r?\n$/, ''))}`;
      out.push(line.kind === '+' ? paint(GREEN, text) : line.kind === '-' ? paint(RED, text) : text);
    }
  }
  if (left > 0) out.push(`… ${left} more diff line(s)`);
  return out;
}

/** `path +N −M` for each file a call changed, joined; empty when it changed none. */
export function changesSummary(record: ToolCallRecord, safe: (text: string) => string): string {
  return (record.changes ?? []).map((change) => `${safe(change.path)} +${change.added} −${change.removed}`).join(', ');
}
