import { describe, expect, it } from 'vitest';
import { type McpServerConfig, mcpServerConfigSchema } from '../config/cw-config.js';
import { mcpServerFingerprint } from './mcp-server-fingerprint.js';
import { mcpServerSnapshotStatus, mcpSnapshotState } from './mcp-snapshot-state.js';
import type { McpSnapshot } from './mcp-snapshot-store.js';

const server = (raw: unknown): McpServerConfig => mcpServerConfigSchema.parse(raw);
const TOOL = { name: 'read_file', description: 'Reads a file.', inputSchema: { type: 'object' } };

function snapshotOf(servers: Record<string, McpServerConfig>): McpSnapshot {
  const entries: McpSnapshot['servers'] = {};
  for (const [name, config] of Object.entries(servers)) {
    entries[name] = {
      fingerprint: mcpServerFingerprint(config),
      server: { name, version: '1' },
      tools: [TOOL],
      refreshed_at: '2026-01-01T00:00:00.000Z',
    };
  }
  return { version: 1, servers: entries };
}

describe('mcpSnapshotState', () => {
  it('no server, or only disabled ones: disabled', () => {
    expect(mcpSnapshotState({}, { version: 1, servers: {} })).toEqual({ kind: 'disabled' });
    const off = { files: server({ command: 'files-mcp', disabled: true }) };
    expect(mcpSnapshotState(off, snapshotOf({}))).toEqual({ kind: 'disabled' });
  });

  it('every enabled server fresh: the snapshot, sorted by name, with the tools', () => {
    const servers = { web: server({ url: 'https://mcp.example.com/mcp' }), files: server({ command: 'files-mcp' }) };
    const state = mcpSnapshotState(servers, snapshotOf(servers));
    expect(state.kind).toBe('snapshot');
    if (state.kind !== 'snapshot') return;
    expect(state.servers.map((entry) => entry.name)).toEqual(['files', 'web']);
    expect(state.servers[0]?.tools).toEqual([TOOL]);
    expect(state.servers[0]?.fingerprint).toBe(mcpServerFingerprint(servers.files));
    expect(state.servers[0]?.refreshedAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('disabled servers are left out of the snapshot and of the counts', () => {
    const enabled = { files: server({ command: 'files-mcp' }) };
    const servers = { ...enabled, off: server({ command: 'off-mcp', disabled: true }) };
    const state = mcpSnapshotState(servers, snapshotOf(enabled));
    expect(state.kind === 'snapshot' && state.servers.map((entry) => entry.name)).toEqual(['files']);
  });

  it('a changed entry or a missing one: not snapshottable, counts only', () => {
    const servers = {
      files: server({ command: 'files-mcp' }),
      web: server({ url: 'https://mcp.example.com/mcp' }),
      db: server({ command: 'db-mcp' }),
    };
    const snapshot = snapshotOf({ files: servers.files, web: server({ url: 'https://mcp.example.com/v2' }) });
    const state = mcpSnapshotState(servers, snapshot);
    expect(state).toEqual({ kind: 'not-snapshottable', staleCount: 2, enabledCount: 3 });
    expect(JSON.stringify(state)).not.toMatch(/files|web|db/);
  });

  it('an unexpanded reference is part of the entry: changing the reference is a change, the value is not seen', () => {
    const before = { web: server({ url: 'https://h.example.com/mcp', headers: { Authorization: 'Bearer ${env:A}' } }) };
    const after = { web: server({ url: 'https://h.example.com/mcp', headers: { Authorization: 'Bearer ${env:B}' } }) };
    expect(mcpSnapshotState(before, snapshotOf(before)).kind).toBe('snapshot');
    expect(mcpSnapshotState(after, snapshotOf(before)).kind).toBe('not-snapshottable');
  });

  it('a snapshot entry for a server no longer configured does not matter', () => {
    const servers = { files: server({ command: 'files-mcp' }) };
    const snapshot = snapshotOf({ ...servers, gone: server({ command: 'gone' }) });
    expect(mcpSnapshotState(servers, snapshot).kind).toBe('snapshot');
  });
});

describe('mcpServerSnapshotStatus', () => {
  it('fresh, stale or none', () => {
    const files = server({ command: 'files-mcp' });
    const snapshot = snapshotOf({ files });
    expect(mcpServerSnapshotStatus('files', files, snapshot)).toBe('fresh');
    expect(mcpServerSnapshotStatus('files', server({ command: 'files-mcp', args: ['--ro'] }), snapshot)).toBe('stale');
    expect(mcpServerSnapshotStatus('web', files, snapshot)).toBe('none');
    expect(mcpServerSnapshotStatus('toString', files, snapshot)).toBe('none');
  });
});
