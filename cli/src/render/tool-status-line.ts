import type { ToolCallRecord } from '@cw/core';
import { changesSummary } from './file-diff-lines.js';

type Safe = (text: string) => string;

// A summary is the tool's own label of its arguments (a path, a command); long ones are cut.
const MAX_SUMMARY = 60;

function label(name: string, summary: string, safe: Safe): string {
  const short = summary.length > MAX_SUMMARY ? `${summary.slice(0, MAX_SUMMARY - 1)}…` : summary;
  return safe(short === '' ? name : `${name} ${short}`);
}

/** The line printed when a tool call starts; `prefix` marks cw's own lines (none inside the session). */
export function toolStartLine(name: string, summary: string, safe: Safe, prefix = 'cw: '): string {
  return `${prefix}▸ ${label(name, summary, safe)}\n`;
}

/** The line printed when a tool call ends: its status and how long it took. */
export function toolEndLine(record: ToolCallRecord, safe: Safe, prefix = 'cw: '): string {
  const mark = record.status === 'ok' ? '✓' : record.status === 'error' ? '✗' : '·';
  const took = record.durationMs > 0 ? `, ${record.durationMs} ms` : '';
  return `${prefix}${mark} ${label(record.call.name, record.summary, safe)} (${record.status}${took})\n`;
}

/** The line under it for a call that changed files, `  notes.txt +1 −1`; empty when it changed none. */
export function toolChangesLine(record: ToolCallRecord, safe: Safe, prefix = 'cw: '): string {
  const changes = changesSummary(record, safe);
  return changes === '' ? '' : `${prefix}  ${changes}\n`;
}
