import { mkdir, rm, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** Another cw process holds the lock for too long; nothing was written. */
export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
}

// A lock older than this belonged to a process that died mid-write.
const STALE_AFTER_MS = 60_000;

/**
 * Runs `work` holding an exclusive lock next to `file`. mkdir is atomic on every local file
 * system, so the lock is a folder; it is removed when the work ends, even on error.
 */
export async function withFileLock<T>(file: string, work: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lock).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (age > STALE_AFTER_MS) {
        await rm(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new LockTimeoutError('the session is locked by another cw process; try again when it finishes');
      await sleep(25);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
