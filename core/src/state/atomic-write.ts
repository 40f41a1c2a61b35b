import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tempNameFor } from './interrupted-writes.js';

/**
 * Writes `text` to a new temp file beside `file`, synced to disk, and returns its path. The writer's
 * pid in the name lets the next cw remove it if this one is killed before it is renamed or linked
 * into place (docs/agent-loop.md, "After a crash").
 */
export async function writeSyncedSibling(file: string, text: string): Promise<string> {
  const folder = dirname(file);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const temp = join(folder, tempNameFor(process.pid, randomBytes(6).toString('hex')));
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return temp;
}

/**
 * Replaces a file atomically: write a sibling temp file, fsync it, rename over the target, fsync
 * the folder. A crash leaves the old file or the new one, never a torn mix.
 */
export async function writeFileAtomic(
  file: string,
  text: string,
  /** Test runs only: holds the write between the temp file and the rename (src/agent/test-pause.ts). */
  pause?: (point: string) => Promise<void>,
): Promise<void> {
  const temp = await writeSyncedSibling(file, text);
  try {
    await pause?.('inside-write');
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  const dir = await open(dirname(file), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
