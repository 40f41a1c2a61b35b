import { link, rm } from 'node:fs/promises';
import { writeSyncedSibling } from './atomic-write.js';
import { sessionPath } from './session-store.js';

/**
 * Stores an empty session under `key` unless one is already stored there, and says whether it did.
 * The file appears complete or not at all (a temp file hard-linked into place, which fails when the
 * name exists), so two cw processes claiming the same fresh name cannot both get it.
 */
export async function claimSession(home: string, key: string): Promise<boolean> {
  const file = sessionPath(home, key);
  const temp = await writeSyncedSibling(file, `${JSON.stringify({ version: 1, messages: [] }, null, 2)}\n`);
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}
