import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverFileDigest } from './server-file-digest.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function machine(): Promise<{ ws: string; outside: string }> {
  const base = await mkdtemp(join(tmpdir(), 'cw-digest-'));
  folders.push(base);
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  await mkdir(join(ws, 'sub'), { recursive: true });
  await mkdir(outside);
  return { ws, outside };
}

const stdio = (command: string, args: string[]) => ({ command, args, env: {}, disabled: false });
const node = (...args: string[]) => stdio('node', args);

describe('serverFileDigest', () => {
  it('is null for a server that names no workspace file, and for an HTTP server', async () => {
    const { ws } = await machine();
    expect(await serverFileDigest(ws, node('-y', '@scope/pkg', '/usr/bin/env'), ws)).toBeNull();
    expect(await serverFileDigest(ws, { url: 'https://example.com/mcp', headers: {} } as never, ws)).toBeNull();
  });

  it('changes when the script changes and comes back when it is restored, wherever cw runs', async () => {
    const { ws } = await machine();
    await writeFile(join(ws, 'server.mjs'), 'one');
    const first = await serverFileDigest(ws, node('server.mjs'), ws);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await serverFileDigest(ws, node('server.mjs'), join(ws, 'sub'))).toBe(first);
    await writeFile(join(ws, 'server.mjs'), 'two');
    expect(await serverFileDigest(ws, node('server.mjs'), ws)).not.toBe(first);
    await writeFile(join(ws, 'server.mjs'), 'one');
    expect(await serverFileDigest(ws, node('server.mjs'), ws)).toBe(first);
  });

  it('a script that appears after trust, or a command path in the workspace, counts', async () => {
    const { ws } = await machine();
    expect(await serverFileDigest(ws, node('later.mjs'), ws)).toBeNull();
    await writeFile(join(ws, 'later.mjs'), 'x');
    expect(await serverFileDigest(ws, node('later.mjs'), ws)).not.toBeNull();
    await writeFile(join(ws, 'run.sh'), '#!/bin/sh\n');
    expect(await serverFileDigest(ws, stdio('./run.sh', []), ws)).not.toBeNull();
  });

  it('a link is not the file it points at, and a link out of the workspace is never read', async () => {
    const { ws, outside } = await machine();
    await writeFile(join(ws, 'server.mjs'), 'same bytes');
    const plain = await serverFileDigest(ws, node('server.mjs'), ws);
    await writeFile(join(outside, 'server.mjs'), 'same bytes');
    await rm(join(ws, 'server.mjs'));
    await symlink(join(outside, 'server.mjs'), join(ws, 'server.mjs'));
    const linked = await serverFileDigest(ws, node('server.mjs'), ws);
    expect(linked).not.toBe(plain);
    // What the outside file holds does not enter the digest: it is never opened.
    await writeFile(join(outside, 'server.mjs'), 'other bytes');
    expect(await serverFileDigest(ws, node('server.mjs'), ws)).toBe(linked);
  });

  it('a folder on the way that links out of the workspace is not followed', async () => {
    const { ws, outside } = await machine();
    await writeFile(join(outside, 'server.mjs'), 'one');
    await symlink(outside, join(ws, 'lib'));
    const first = await serverFileDigest(ws, node('lib/server.mjs'), ws);
    await writeFile(join(outside, 'server.mjs'), 'two');
    expect(await serverFileDigest(ws, node('lib/server.mjs'), ws)).toBe(first);
  });
});
