import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, lstat, open, readlink, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { McpServerConfig } from '../config/cw-config.js';
import { isMcpHttpServer } from './mcp-server-target.js';

// Trusting a `.mcp.json` entry that runs `node server.mjs` means trusting server.mjs as it was then:
// the model can edit a workspace file but not the trust record, so the record holds each such file's
// SHA-256 (docs/mcp.md, "Project scope").

/**
 * One digest of the workspace files a stdio server's command or arguments name, as they are now, or
 * null when it names none. A path counts when it lies inside the workspace and exists; it is read
 * relative to the server's `cwd`, the command's folder and the workspace root alike, so the digest
 * does not depend on where cw runs. A link is recorded as its text and never followed out of the
 * workspace; a file is read through a descriptor opened without following a link, and only when
 * that descriptor is inside the workspace.
 */
export async function serverFileDigest(
  workspace: string,
  server: McpServerConfig,
  cwd: string,
): Promise<string | null> {
  if (isMcpHttpServer(server)) return null;
  const root = await realpath(workspace).catch(() => resolve(workspace));
  const bases = [...new Set([resolve(root, server.cwd ?? '.'), resolve(cwd, server.cwd ?? '.'), root])];
  const named = [...(/[\\/]/.test(server.command) ? [server.command] : []), ...server.args];
  const paths = new Set<string>();
  for (const word of named) {
    if (word === '' || word.includes('\u0000')) continue;
    for (const base of bases) {
      const path = resolve(base, word);
      if (inside(root, path) && path !== root) paths.add(path);
    }
  }
  const entries: [string, string][] = [];
  for (const path of [...paths].sort()) {
    const state = await fileState(root, path);
    if (state !== null) entries.push([relative(root, path), state]);
  }
  if (entries.length === 0) return null;
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex');
}

/** What one path is now: a file's SHA-256, a link's text, a folder, another kind; null when absent. */
async function fileState(root: string, path: string): Promise<string | null> {
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(path);
  } catch {
    return null;
  }
  if (stats.isSymbolicLink()) {
    const text = await readlink(path).catch(() => '');
    // A link inside the workspace is recorded with what it reaches; one out of it, by its text only.
    const target = await realpath(path).catch(() => null);
    const reached = target !== null && inside(root, target) ? await fileState(root, target) : 'outside';
    return `link:${text}:${reached ?? 'absent'}`;
  }
  if (stats.isDirectory()) return 'directory';
  if (!stats.isFile()) return 'special';
  return fileContentState(root, path);
}

async function fileContentState(root: string, path: string): Promise<string> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO swapped in after the lstat must not hang the read.
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return 'unreadable';
  }
  try {
    if (!(await handle.stat()).isFile()) return 'special';
    // The folder a path goes through may be a link: where the descriptor really is decides.
    const real = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => realpath(path).catch(() => null));
    if (real === null || !inside(root, real)) return 'outside';
    const hash = createHash('sha256');
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
    return `file:${hash.digest('hex')}`;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
