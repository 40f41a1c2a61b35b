// Line diffs for approvals and change summaries (docs/agent-loop.md, "What an approval shows"). The
// common head and tail are cut first, so an edit in a large file compares only the lines it touches;
// what is left is compared by a longest common subsequence over lines, and a middle too large for
// that is shown as one replacement, which is still a correct diff.

/** The largest middle (old lines × new lines) compared line by line; beyond it, one replacement. */
const MAX_TABLE_CELLS = 4_000_000;

/** One line of a hunk: kept (` `), added (`+`) or removed (`-`); `text` keeps its line end. */
export interface DiffLine {
  readonly kind: ' ' | '+' | '-';
  readonly text: string;
}

/** One hunk, numbered as unified diffs number them (1-based; a start of 0 with no lines at the top). */
export interface DiffHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly DiffLine[];
}

/** A text's lines, each with its own line end, so joining them gives the text back exactly. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The hunks that turn `oldText` into `newText`, with `context` unchanged lines around each change. */
export function diffLines(oldText: string, newText: string, context = 3): DiffHunk[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const script = editScript(a, b);
  return hunksOf(script, context);
}

/** Lines added and removed by a set of hunks. */
export function countChanges(hunks: readonly DiffHunk[]): { readonly added: number; readonly removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks)
    for (const line of hunk.lines) {
      if (line.kind === '+') added++;
      else if (line.kind === '-') removed++;
    }
  return { added, removed };
}

/** Applies hunks to the text they were made from; throws when they do not fit it. */
export function applyHunks(oldText: string, hunks: readonly DiffHunk[]): string {
  const a = splitLines(oldText);
  const out: string[] = [];
  let at = 0;
  for (const hunk of hunks) {
    const start = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    if (start < at) throw new Error('hunks overlap');
    out.push(...a.slice(at, start));
    at = start;
    for (const line of hunk.lines) {
      if (line.kind === '+') {
        out.push(line.text);
        continue;
      }
      if (a[at] !== line.text) throw new Error('a hunk does not match the text');
      if (line.kind === ' ') out.push(line.text);
      at++;
    }
  }
  out.push(...a.slice(at));
  return out.join('');
}

/** A hunk's header line, `@@ -l,s +l,s @@`. */
export function hunkHeader(hunk: DiffHunk): string {
  return `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
}

/** The hunks as unified diff text under `--- a/path` / `+++ b/path`, one line each, no line ends kept inside. */
export function unifiedDiffText(path: string, hunks: readonly DiffHunk[]): string {
  const out = [`--- a/${path}`, `+++ b/${path}`];
  for (const hunk of hunks) {
    out.push(hunkHeader(hunk));
    for (const line of hunk.lines) out.push(`${line.kind}${line.text.replace(/\r?\n$/, '')}`);
  }
  return `${out.join('\n')}\n`;
}

type Op = { readonly kind: ' ' | '+' | '-'; readonly text: string };

/** The shortest list of keeps, removals and additions found by the cut-and-compare above. */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const keep = (lines: readonly string[]): Op[] => lines.map((text) => ({ kind: ' ', text }));
  return [...keep(a.slice(0, head)), ...middle(midA, midB), ...keep(a.slice(a.length - tail))];
}

function middle(a: readonly string[], b: readonly string[]): Op[] {
  const removeAll = (): Op[] => [
    ...a.map((text) => ({ kind: '-' as const, text })),
    ...b.map((text) => ({ kind: '+' as const, text })),
  ];
  if (a.length === 0 || b.length === 0 || (a.length + 1) * (b.length + 1) > MAX_TABLE_CELLS) return removeAll();
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], in one flat table.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i] as string });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number)) {
      ops.push({ kind: '-', text: a[i] as string });
      i++;
    } else {
      ops.push({ kind: '+', text: b[j] as string });
      j++;
    }
  }
  while (i < a.length) ops.push({ kind: '-', text: a[i++] as string });
  while (j < b.length) ops.push({ kind: '+', text: b[j++] as string });
  return ops;
}

/** Groups an edit script into hunks: changes closer than twice the context share one. */
function hunksOf(ops: readonly Op[], context: number): DiffHunk[] {
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  if (changed.length === 0) return [];
  // Ranges of op indexes, each a change run widened by the context and merged with its neighbours.
  const ranges: [number, number][] = [];
  for (const index of changed) {
    const from = Math.max(0, index - context);
    const to = Math.min(ops.length - 1, index + context);
    const last = ranges.at(-1);
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  }
  // Line numbers before each op, on both sides.
  const oldBefore: number[] = [];
  const newBefore: number[] = [];
  let oldSeen = 0;
  let newSeen = 0;
  for (const op of ops) {
    oldBefore.push(oldSeen);
    newBefore.push(newSeen);
    if (op.kind !== '+') oldSeen++;
    if (op.kind !== '-') newSeen++;
  }
  return ranges.map(([from, to]) => {
    const lines = ops.slice(from, to + 1);
    const oldLines = lines.filter((line) => line.kind !== '+').length;
    const newLines = lines.filter((line) => line.kind !== '-').length;
    const oldFirst = oldBefore[from] as number;
    const newFirst = newBefore[from] as number;
    return {
      oldStart: oldLines === 0 ? oldFirst : oldFirst + 1,
      oldLines,
      newStart: newLines === 0 ? newFirst : newFirst + 1,
      newLines,
      lines,
    };
  });
}
