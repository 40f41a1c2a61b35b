import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';

/** Where a reply that could not be saved was kept, named so it can be printed: never an absolute path. */
export interface RecoveryLocation {
  /** `home`: inside the cw home, `temp`: in the system's temporary folder. */
  readonly folder: 'home' | 'temp';
  /** The file, relative to that folder. */
  readonly file: string;
}

/**
 * Keeps a reply the user paid for when the session cannot take it (full disk, read-only home, a
 * session changed by hand meanwhile): first in the cw home, then in the system's temporary folder.
 * Returns null only when neither could be written.
 */
export async function writeRecoveryFile(
  home: string,
  sessionName: string,
  content: unknown,
): Promise<RecoveryLocation | null> {
  const stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
  const text = `${JSON.stringify(content, null, 2)}\n`;
  const inHome = join('recovered', `${sessionName}-${stamp}.json`);
  try {
    await writeFileAtomic(join(home, inHome), text);
    return { folder: 'home', file: inHome };
  } catch {
    // The home is the likely reason the session failed too; the temporary folder is the fallback.
  }
  const inTemp = `cw-recovered-${sessionName}-${stamp}.json`;
  try {
    await writeFileAtomic(join(tmpdir(), inTemp), text);
    return { folder: 'temp', file: inTemp };
  } catch {
    return null;
  }
}
