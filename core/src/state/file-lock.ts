import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isAlive, processIdentity, type ProcessIdentity } from './process-identity.js';

/** Another cw process held the lock for longer than the wait allows; nothing was sent or written. */
export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
  readonly exitCode = 1;
}

/** The cw home (or the session folder in it) cannot be written; nothing was sent. */
export class HomeNotWritableError extends Error {
  override readonly name = 'HomeNotWritableError';
  readonly exitCode = 1;
}

/** How a lock wait went, for the caller to tell the person. */
export interface LockEvents {
  /** Another live process holds the lock; this one waits. */
  readonly onWait?: () => void;
  /** The lock was left by a process that died; it was removed. */
  readonly onStaleLockBroken?: () => void;
}

const OWNER_FILE = 'owner.json';
const POLL_MS = 25;
// A lock folder without a readable owner is one left half-made by a process killed in the middle of
// taking or breaking it; past this age it counts as abandoned.
const ORPHAN_AFTER_MS = 5_000;
// Breaking a dead lock takes milliseconds; a break marker older than this belongs to a killed breaker.
const BREAK_MARKER_STALE_MS = 5_000;

/**
 * Runs `work` holding an exclusive lock next to `file`. The lock is a folder that appears whole, with
 * its owner's pid and start time already inside: it is built under a temporary name and renamed into
 * place, which is atomic and fails while another lock is there. A lock whose owner died is recognised
 * at once and broken; a live owner is waited for up to `timeoutMs`.
 */
export async function withFileLock<T>(
  file: string,
  work: () => Promise<T>,
  options: LockEvents & { readonly timeoutMs?: number } = {},
): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const me = await processIdentity(process.pid);
  let told = false;
  for (;;) {
    if (await tryAcquire(lock, me)) break;
    if (await breakIfDead(lock)) {
      options.onStaleLockBroken?.();
      continue;
    }
    if (Date.now() > deadline) {
      throw new LockTimeoutError('the session is locked by another cw process; try again when it finishes');
    }
    if (!told) {
      told = true;
      options.onWait?.();
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return await work();
  } finally {
    await release(lock);
  }
}

/**
 * Lets go of the lock in one step: renamed aside, then removed. Removing it in place would leave an
 * empty folder for a moment, and a waiting process's rename onto an empty folder succeeds.
 */
async function release(lock: string): Promise<void> {
  const aside = join(dirname(lock), `.${basename(lock)}.${process.pid}.${randomBytes(4).toString('hex')}.done`);
  try {
    await rename(lock, aside);
  } catch {
    return;
  }
  await rm(aside, { recursive: true, force: true });
}

async function tryAcquire(lock: string, me: ProcessIdentity): Promise<boolean> {
  const folder = dirname(lock);
  const staging = join(folder, `.${basename(lock)}.${process.pid}.${randomBytes(4).toString('hex')}.new`);
  try {
    await mkdir(staging, { mode: 0o700 });
    await writeFile(join(staging, OWNER_FILE), JSON.stringify(me), { mode: 0o600 });
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    throw new HomeNotWritableError(`the cw home is not writable (${code ?? 'error'}); nothing was sent`);
  }
  try {
    await rename(staging, lock);
    return true;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTDIR') return false;
    throw new HomeNotWritableError(`the cw home is not writable (${code ?? 'error'}); nothing was sent`);
  }
}

/**
 * Breaks the lock when its owner is dead. Breakers take turns through a marker folder and each
 * re-reads the owner under it, so a lock taken anew after a break is never mistaken for the dead one.
 */
async function breakIfDead(lock: string): Promise<boolean> {
  const marker = `${lock}.breaking`;
  try {
    await mkdir(marker);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    const age = await ageOf(marker);
    if (age > BREAK_MARKER_STALE_MS) await rm(marker, { recursive: true, force: true });
    return false;
  }
  try {
    if (!(await ownerIsDead(lock))) return false;
    const aside = join(dirname(lock), `.${basename(lock)}.${process.pid}.${Date.now()}.stale`);
    await rename(lock, aside);
    await rm(aside, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  } finally {
    await rm(marker, { recursive: true, force: true });
  }
}

/** Whether the lock's owner is gone: a dead or reused pid, or no readable owner long after the folder appeared. */
async function ownerIsDead(lock: string): Promise<boolean> {
  let owner: ProcessIdentity | null = null;
  try {
    owner = JSON.parse(await readFile(join(lock, OWNER_FILE), 'utf8')) as ProcessIdentity;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !(await exists(lock))) return false;
    owner = null;
  }
  if (owner === null || typeof owner.pid !== 'number') return (await ageOf(lock)) > ORPHAN_AFTER_MS;
  return !(await isAlive(owner));
}

async function ageOf(path: string): Promise<number> {
  return stat(path).then(
    (info) => Date.now() - info.mtimeMs,
    () => 0,
  );
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
