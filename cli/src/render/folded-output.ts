// A tool's output, shown under its status line folded to its first lines and a count of the rest:
// the person sees what came back at a glance; the model still reads all of it (docs/cli.md, "What a
// terminal shows").

/** How many lines of a tool's output are shown before the rest is folded. */
export const SHOWN_LINES = 8;

/**
 * The lines to show of `output`: at most `shown` lines, each made terminal-safe by `safe` and cut to
 * `width` columns, then `… +K lines` when more were left out. Blank lines at either end are dropped.
 */
export function foldedOutput(
  output: string,
  safe: (text: string) => string,
  width: number,
  shown = SHOWN_LINES,
): string[] {
  const lines = output
    .replace(/\r\n?/g, '\n')
    .replace(/^\n+|\s+$/g, '')
    .split('\n');
  if (lines.length === 1 && lines[0] === '') return [];
  const cut = (line: string): string => {
    const points = [...safe(line)];
    return points.length > width ? `${points.slice(0, Math.max(1, width - 1)).join('')}…` : points.join('');
  };
  // Folding a single line away would take as much room as showing it.
  const keep = lines.length === shown + 1 ? lines.length : Math.min(lines.length, shown);
  const out = lines.slice(0, keep).map(cut);
  if (lines.length > keep) out.push(`… +${lines.length - keep} lines`);
  return out;
}
