import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcpToolNames } from './mcp-tool-names.js';

const RULE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

describe('mcpToolNames', () => {
  it('namespaces plain names as mcp__<server>__<tool>', () => {
    expect(mcpToolNames([{ name: 'files', tools: [{ name: 'read_file' }] }], new Set(['read_file']))).toEqual([
      { wireName: 'mcp__files__read_file', server: 'files', tool: 'read_file' },
    ]);
  });

  it('encodes dots and leading digits, and keeps pairs that encode alike apart', () => {
    const names = mcpToolNames(
      [{ name: 'web', tools: [{ name: 'browser.navigate' }, { name: 'browser_navigate' }, { name: '2fa' }] }],
      new Set(),
    );
    expect(names.map((entry) => entry.wireName)).toEqual([
      expect.stringMatching(/^mcp__web__browser_navigate_[0-9a-f]{8}$/),
      'mcp__web__browser_navigate',
      'mcp__web__2fa',
    ]);
  });

  it('shortens long names with a hash, within 64 characters', () => {
    const [entry] = mcpToolNames([{ name: 'a'.repeat(40), tools: [{ name: 'b'.repeat(40) }] }], new Set());
    expect(entry?.wireName).toHaveLength(64);
    expect(entry?.wireName).toMatch(/_[0-9a-f]{8}$/);
  });

  it('never shadows a taken name', () => {
    const [entry] = mcpToolNames([{ name: 'x', tools: [{ name: 'y' }] }], new Set(['mcp__x__y']));
    expect(entry?.wireName).not.toBe('mcp__x__y');
  });

  it('property: every name meets the strictest rule, all are distinct, and the result is deterministic', () => {
    const server = fc.record({
      name: fc.string({ minLength: 1, maxLength: 70 }),
      tools: fc.array(fc.record({ name: fc.string({ minLength: 1, maxLength: 90 }) }), { maxLength: 6 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(server, { selector: (entry) => entry.name, maxLength: 4 }), (servers) => {
        const names = mcpToolNames(servers, new Set(['read_file']));
        for (const entry of names) expect(entry.wireName).toMatch(RULE);
        expect(new Set(names.map((entry) => entry.wireName)).size).toBe(names.length);
        expect(mcpToolNames(servers, new Set(['read_file']))).toEqual(names);
      }),
      { numRuns: 300 },
    );
  });
});
