import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  emptyMcpSnapshot,
  type McpSnapshot,
  McpSnapshotError,
  mcpSnapshotPath,
  readMcpSnapshot,
  updateMcpSnapshot,
  writeMcpSnapshot,
} from './mcp-snapshot-store.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'cw-mcp-store-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const FINGERPRINT = 'a'.repeat(64);

function snapshotWith(name: string, tools: McpSnapshot['servers'][string]['tools']): McpSnapshot {
  return {
    version: 1,
    servers: {
      [name]: {
        fingerprint: FINGERPRINT,
        server: { name: 'fixture', version: '1.0.0' },
        tools,
        refreshed_at: '2026-01-01T00:00:00.000Z',
      },
    },
  };
}

const ECHO = {
  name: 'echo',
  description: 'Echo.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  annotations: { readOnlyHint: true },
};

async function expectSnapshotError(code: 'corrupt' | 'unreadable'): Promise<McpSnapshotError> {
  const error = await readMcpSnapshot(home).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(McpSnapshotError);
  expect((error as McpSnapshotError).code).toBe(code);
  return error as McpSnapshotError;
}

describe('the MCP snapshot store', () => {
  it('lives at $CW_HOME/mcp/snapshot.json', () => {
    expect(mcpSnapshotPath('/home/x/.cw')).toBe(join('/home/x/.cw', 'mcp', 'snapshot.json'));
  });

  it('reads a missing file as the empty snapshot and creates nothing', async () => {
    expect(await readMcpSnapshot(home)).toEqual(emptyMcpSnapshot());
    expect(await readdir(home)).toEqual([]);
  });

  it('writes what it reads back, atomically, leaving no lock or temp file behind', async () => {
    const snapshot = snapshotWith('files', [ECHO, { name: 'bare', description: '', inputSchema: { type: 'object' } }]);
    await writeMcpSnapshot(home, snapshot);
    expect(await readMcpSnapshot(home)).toEqual(snapshot);
    expect(await readdir(join(home, 'mcp'))).toEqual(['snapshot.json']);
    expect(JSON.parse(await readFile(mcpSnapshotPath(home), 'utf8'))).toEqual(snapshot);
  });

  it('a corrupt file is a typed error that names no path and no content', async () => {
    await mkdir(join(home, 'mcp'));
    await writeFile(mcpSnapshotPath(home), '{"version": 1, "servers": {"x": {"fingerprint": "sk-live-not-json');
    const error = await expectSnapshotError('corrupt');
    expect(error.safeMessage).not.toContain(home);
    expect(error.safeMessage).not.toContain('sk-live');
    expect(error.safeMessage).toContain('cw mcp refresh');
  });

  it('a file of the wrong shape is corrupt too', async () => {
    await mkdir(join(home, 'mcp'));
    for (const wrong of [
      { version: 2, servers: {} },
      { version: 1, servers: { x: { fingerprint: 'short', server: null, tools: [], refreshed_at: 'now' } } },
      { ...snapshotWith('x', [ECHO]), extra: true },
      snapshotWith('x', [{ ...ECHO, name: '' }]),
    ]) {
      await writeFile(mcpSnapshotPath(home), JSON.stringify(wrong));
      await expectSnapshotError('corrupt');
    }
  });

  it('update reads, changes and writes under the lock; concurrent updates lose nothing', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        updateMcpSnapshot(home, (current) => ({
          ...current,
          servers: { ...current.servers, ...snapshotWith(`server-${index}`, [ECHO]).servers },
        })),
      ),
    );
    const names = Object.keys((await readMcpSnapshot(home)).servers).sort();
    expect(names).toEqual(Array.from({ length: 8 }, (_, index) => `server-${index}`).sort());
    expect(await readdir(join(home, 'mcp'))).toEqual(['snapshot.json']);
  });

  it('update repairs a corrupt file by starting from empty', async () => {
    await mkdir(join(home, 'mcp'));
    await writeFile(mcpSnapshotPath(home), 'not json');
    const written = await updateMcpSnapshot(home, (current) => {
      expect(current).toEqual(emptyMcpSnapshot());
      return snapshotWith('files', [ECHO]);
    });
    expect(await readMcpSnapshot(home)).toEqual(written);
  });

  it('update refuses to write a snapshot it could not read back', async () => {
    const bad = { version: 1, servers: { x: { fingerprint: 'nope' } } } as unknown as McpSnapshot;
    await expect(updateMcpSnapshot(home, () => bad)).rejects.toThrow();
    expect(await readMcpSnapshot(home)).toEqual(emptyMcpSnapshot());
  });
});
