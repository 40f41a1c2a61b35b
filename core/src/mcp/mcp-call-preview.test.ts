import { describe, expect, it } from 'vitest';
import { mcpCallPreview, mcpHintWords } from './mcp-call-preview.js';

describe('mcpCallPreview', () => {
  it('shows each key with short values as JSON, and cuts long text with its size and line count', () => {
    const content = `${'line of text\n'.repeat(200)}`;
    const lines = mcpCallPreview({ path: 'notes/todo.md', content, overwrite: true, mode: 420 }, undefined);
    expect(lines[0]).toBe('the server gives no hints about this tool');
    expect(lines[1]).toBe('path: "notes/todo.md"');
    expect(lines[2]).toMatch(/^content: "line of text line of text.*"… \(2\.5 KiB, 201 lines\)$/);
    expect(lines[2]!.length).toBeLessThan(140);
    expect(lines.slice(3)).toEqual(['overwrite: true', 'mode: 420']);
  });

  it('redacts secrets and terminal controls in values and keys', () => {
    const lines = mcpCallPreview({ 'k\u001b[31m': 'token sk-abcdefghijklmnopqrstuvwx', nested: { a: 'b' } }, {});
    expect(lines.join('\n')).not.toContain('sk-abcdefghijklmnopqrstuvwx');
    expect(lines.join('\n')).not.toContain('\u001b');
    expect(lines).toContain('nested: {"a":"b"}');
  });

  it('bounds containers and the number of keys', () => {
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i]));
    const lines = mcpCallPreview({ ...many, list: Array.from({ length: 100 }, (_, i) => i) }, undefined);
    expect(lines).toHaveLength(1 + 12 + 1);
    expect(lines.at(-1)).toBe('… and 9 more arguments');
    const big = mcpCallPreview(
      { list: Array.from({ length: 100 }, (_, i) => i), obj: { text: 'x'.repeat(200) } },
      undefined,
    );
    expect(big[1]).toBe('list: [100 items, 291 bytes]');
    expect(big[2]).toBe('obj: {1 key, 211 bytes}');
    expect(mcpCallPreview({}, undefined)).toEqual(['the server gives no hints about this tool', 'no arguments']);
  });

  it('names the annotations the server gave, and only those', () => {
    expect(mcpHintWords({ readOnlyHint: true, openWorldHint: false })).toEqual(['read-only', 'closed-world']);
    expect(mcpHintWords({ destructiveHint: true, openWorldHint: true })).toEqual(['destructive', 'open-world']);
    expect(mcpHintWords({ destructiveHint: false, idempotentHint: true })).toEqual(['not destructive', 'idempotent']);
    expect(mcpCallPreview({}, { readOnlyHint: true })[0]).toBe('the server marks this tool: read-only');
  });
});
