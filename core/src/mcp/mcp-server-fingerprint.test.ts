import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../canonical/canonical-json.js';
import { sha256Hex } from '../canonical/sha256.js';
import { mcpServerConfigSchema } from '../config/cw-config.js';
import { mcpServerFingerprint } from './mcp-server-fingerprint.js';

const entry = (raw: unknown) => mcpServerConfigSchema.parse(raw);

describe('mcpServerFingerprint', () => {
  it('is the sha256 of the canonical JSON of the entry, defaults filled in, without disabled', () => {
    const server = entry({ command: 'files-mcp', args: ['--root', '.'], env: { TOKEN: '${env:FILES_TOKEN}' } });
    const expected = sha256Hex(
      canonicalJson({ command: 'files-mcp', args: ['--root', '.'], env: { TOKEN: '${env:FILES_TOKEN}' } }),
    );
    expect(mcpServerFingerprint(server)).toBe(expected);
    expect(mcpServerFingerprint(server)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not depend on key order, written defaults or disabled', () => {
    const a = entry({ command: 'x', env: { B: '2', A: '1' } });
    const b = entry({ env: { A: '1', B: '2' }, args: [], command: 'x', disabled: true });
    expect(mcpServerFingerprint(a)).toBe(mcpServerFingerprint(b));
  });

  it('changes with anything that changes the server', () => {
    const base = mcpServerFingerprint(entry({ url: 'https://mcp.example.com/mcp' }));
    for (const changed of [
      { url: 'https://mcp.example.com/mcp2' },
      { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${env:T}' } },
      { command: 'https://mcp.example.com/mcp' },
    ]) {
      expect(mcpServerFingerprint(entry(changed))).not.toBe(base);
    }
  });

  it('hashes references, never their values: the same entry under any environment', () => {
    const server = entry({ url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${env:T}' } });
    expect(JSON.stringify(server)).toContain('${env:T}');
    expect(mcpServerFingerprint(server)).toBe(
      sha256Hex(canonicalJson({ url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${env:T}' } })),
    );
  });
});
