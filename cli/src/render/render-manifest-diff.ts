import { type diffManifests, terminalSafe } from '@cw/core';
import type { JsonValue } from '@cw/core/plugin';
import { TABLE_WIDTH, type TableOptions } from './render-manifest-table.js';
import { wrapWords } from './wrap-text.js';

/** What diffManifests found, as the core returns it. */
type ManifestDiff = ReturnType<typeof diffManifests>;

const FIELD_INDENT = '  ';
const VALUE_INDENT = '    ';
const SIDE_WIDTH = 3;

/**
 * Renders a manifest diff for a person, within 80 columns. It prints field paths and the values the
 * two manifests already hold (redacted when they were made), plus cw's own notes; nothing else.
 */
export function renderManifestDiff(diff: ManifestDiff, options: TableOptions): string {
  const bold = (text: string): string => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const dim = (text: string): string => (options.color ? `\u001b[2m${text}\u001b[22m` : text);
  const lines: string[] = [bold('Manifest diff (A = first file, B = second file)')];
  lines.push(
    dim(
      diff.identical
        ? 'The two manifests are identical.'
        : 'Grouped as in docs/preview-request.md, "What to read in the diff".',
    ),
  );
  lines.push('');
  for (const group of diff.groups) {
    if (group.id === 'other' && group.differences.length === 0) continue;
    lines.push(bold(group.title));
    if (group.differences.length === 0) lines.push(`${FIELD_INDENT}${dim('no difference')}`);
    for (const entry of group.differences) {
      lines.push(`${FIELD_INDENT}${terminalSafe(entry.path)}`);
      lines.push(...side('A', entry.a), ...side('B', entry.b));
    }
    if (group.note !== null) {
      for (const line of wrapWords(group.note, TABLE_WIDTH - FIELD_INDENT.length, TABLE_WIDTH))
        lines.push(`${FIELD_INDENT}${dim(line.text)}`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function side(name: 'A' | 'B', value: JsonValue | undefined): string[] {
  const prefix = `${VALUE_INDENT}${name.padEnd(SIDE_WIDTH)}`;
  const shown =
    value === undefined
      ? '(absent)'
      : typeof value === 'string'
        ? terminalSafe(value)
        : terminalSafe(JSON.stringify(value));
  const width = TABLE_WIDTH - prefix.length;
  return wrapWords(shown, width, width).map(
    (line, index) => `${index === 0 ? prefix : ' '.repeat(prefix.length)}${line.text}`,
  );
}
