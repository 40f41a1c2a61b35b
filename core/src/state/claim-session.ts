import { randomBytes } from 'node:crypto';
import { link, mkdir, open, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tempNameFor } from './interrupted-writes.js';
import { sessionPath } from './session-store.js';

/**
 * Stores an empty session under `key` unless one is already stored there, and says whether it did.
 * The file appears complete or not at all (a temp file hard-linked into place, which fails when the
 * name exists), so two cw processes claiming the same fresh name cannot both get it.
 */
export async function claimSession(home: string, key: string): Promise<boolean> {
  const file = sessionPath(home, key);
  const folder = dirname(file);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // The writer's pid in the name lets the next cw remove it if this one is killed mid-write.
  const temp = join(folder, tempNameFor(process.pid, randomBytes(6).toString('hex')));
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify({ version: 1, messages: [] }, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}
