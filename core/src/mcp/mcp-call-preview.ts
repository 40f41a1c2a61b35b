import type { JsonValue } from '../canonical/canonical-json.js';
import { redactSecrets } from '../redaction/redact-secrets.js';
import { terminalSafe } from '../redaction/terminal-safe.js';

// An approval must say what a call will do without flooding the terminal: a few keys, short values,
// and long ones cut with their size so a person sees that more is there (docs/mcp.md).
const MAX_KEYS = 12;
const MAX_VALUE_CHARS = 80;
const MAX_KEY_CHARS = 40;

/** The annotations a server may give a tool, as MCP defines them; anything else is ignored. */
export interface McpToolHints {
  readonly readOnlyHint?: unknown;
  readonly destructiveHint?: unknown;
  readonly idempotentHint?: unknown;
  readonly openWorldHint?: unknown;
}

/**
 * The words an approval shows for a tool's annotations: `read-only`, `destructive`, `open-world`
 * where the server says so. A tool without annotations gets none: cw never guesses.
 */
export function mcpHintWords(hints: McpToolHints | undefined): string[] {
  if (hints === undefined) return [];
  const words: string[] = [];
  if (hints.readOnlyHint === true) words.push('read-only');
  // MCP's default for destructiveHint is true, but only for tools that are not read-only; cw shows
  // only what the server stated.
  if (hints.readOnlyHint !== true && hints.destructiveHint === true) words.push('destructive');
  if (hints.readOnlyHint !== true && hints.destructiveHint === false) words.push('not destructive');
  if (hints.idempotentHint === true) words.push('idempotent');
  if (hints.openWorldHint === true) words.push('open-world');
  if (hints.openWorldHint === false) words.push('closed-world');
  return words;
}

/** One argument value in a line: short scalars as JSON, long text cut with its size, containers by size. */
function previewValue(value: JsonValue): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') {
    const bytes = Buffer.byteLength(value, 'utf8');
    const lines = value.split('\n').length;
    const shown = terminalSafe(redactSecrets(value));
    if (shown.length <= MAX_VALUE_CHARS && lines === 1) return JSON.stringify(shown);
    const cut = shown.slice(0, MAX_VALUE_CHARS).trimEnd();
    return `${JSON.stringify(cut)}… (${describeSize(bytes)}${lines > 1 ? `, ${lines} lines` : ''})`;
  }
  if (Array.isArray(value)) {
    const text = JSON.stringify(value);
    if (text.length <= MAX_VALUE_CHARS) return terminalSafe(redactSecrets(text));
    return `[${value.length} item${value.length === 1 ? '' : 's'}, ${describeSize(Buffer.byteLength(text, 'utf8'))}]`;
  }
  const text = JSON.stringify(value);
  if (text.length <= MAX_VALUE_CHARS) return terminalSafe(redactSecrets(text));
  const keys = Object.keys(value).length;
  return `{${keys} key${keys === 1 ? '' : 's'}, ${describeSize(Buffer.byteLength(text, 'utf8'))}}`;
}

function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * The lines an approval question shows for an MCP call: the tool's annotations when the server gave
 * any, then one `key: value` line per argument (at most MAX_KEYS, then how many more), values
 * bounded and redacted. Every line is terminal-safe.
 */
export function mcpCallPreview(args: { readonly [key: string]: JsonValue }, hints: McpToolHints | undefined): string[] {
  const lines: string[] = [];
  const words = mcpHintWords(hints);
  lines.push(
    words.length > 0 ? `the server marks this tool: ${words.join(', ')}` : 'the server gives no hints about this tool',
  );
  const keys = Object.keys(args);
  if (keys.length === 0) lines.push('no arguments');
  for (const key of keys.slice(0, MAX_KEYS)) {
    const safeKey = terminalSafe(key).slice(0, MAX_KEY_CHARS);
    lines.push(`${safeKey}: ${previewValue(args[key] as JsonValue)}`);
  }
  if (keys.length > MAX_KEYS) lines.push(`… and ${keys.length - MAX_KEYS} more arguments`);
  return lines;
}
