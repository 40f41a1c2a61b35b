import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LockTimeoutError, withFileLock } from './file-lock.js';
import { processIdentity, type ProcessIdentity } from './process-identity.js';

let folder: string;
let file: string;
let lock: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'cw-file-lock-'));
  file = join(folder, 'default.json');
  lock = `${file}.lock`;
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A lock folder as another process would have left it, with `owner` in its owner file. */
async function leaveLock(owner: ProcessIdentity): Promise<void> {
  await mkdir(lock);
  await writeFile(join(lock, 'owner.json'), JSON.stringify(owner));
}

/** A pid that certainly belongs to no running process: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise<void>((resolve) => child.on('exit', () => resolve()));
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

describe('withFileLock', () => {
  it('runs concurrent holders one at a time', async () => {
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        withFileLock(file, async () => {
          inside += 1;
          most = Math.max(most, inside);
          await sleep(5 + (index % 3) * 5);
          order.push(index);
          inside -= 1;
          return index;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect([...order].sort((a, b) => a - b)).toEqual(results);
    expect(await readdir(folder)).toEqual([]);
  });

  it('holds a lock folder with its own identity in it while the work runs', async () => {
    const me = await processIdentity(process.pid);
    await withFileLock(file, async () => {
      expect(JSON.parse(await readFile(join(lock, 'owner.json'), 'utf8'))).toEqual(me);
    });
  });

  it('breaks a lock whose owner has exited, telling onStaleLockBroken', async () => {
    await leaveLock({ pid: await deadPid(), startTime: null });
    const onStaleLockBroken = vi.fn();
    const onWait = vi.fn();
    const result = await withFileLock(file, async () => 'ran', { onStaleLockBroken, onWait, timeoutMs: 5_000 });
    expect(result).toBe('ran');
    expect(onStaleLockBroken).toHaveBeenCalledTimes(1);
    expect(onWait).not.toHaveBeenCalled();
    expect(await readdir(folder)).toEqual([]);
  });

  it('waits for a live owner, telling onWait once, and takes the lock when it is let go', async () => {
    await leaveLock(await processIdentity(process.pid));
    const onStaleLockBroken = vi.fn();
    let released = false;
    const onWait = vi.fn(() => {
      // Let go as an owner does: the lock is moved aside in one step, then removed.
      void sleep(100).then(async () => {
        released = true;
        await rename(lock, join(folder, 'let-go'));
        await rm(join(folder, 'let-go'), { recursive: true, force: true });
      });
    });
    const result = await withFileLock(file, async () => released, { onWait, onStaleLockBroken, timeoutMs: 5_000 });
    expect(result).toBe(true);
    expect(onWait).toHaveBeenCalledTimes(1);
    expect(onStaleLockBroken).not.toHaveBeenCalled();
  });

  it('gives up on a live owner after the timeout with LockTimeoutError, leaving its lock alone', async () => {
    await leaveLock(await processIdentity(process.pid));
    const onWait = vi.fn();
    const work = vi.fn(async () => 'ran');
    const started = Date.now();
    await expect(withFileLock(file, work, { onWait, timeoutMs: 150 })).rejects.toBeInstanceOf(LockTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(work).not.toHaveBeenCalled();
    expect(onWait).toHaveBeenCalledTimes(1);
    expect(await readdir(folder)).toEqual(['default.json.lock']);
  });

  it('removes the lock folder after the work resolves', async () => {
    await withFileLock(file, async () => {
      expect(await readdir(folder)).toEqual(['default.json.lock']);
    });
    expect(await readdir(folder)).toEqual([]);
  });

  it('removes the lock folder after the work throws, and passes the error on', async () => {
    const failure = new Error('work failed');
    await expect(
      withFileLock(file, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await readdir(folder)).toEqual([]);
    // The lock is free again.
    expect(await withFileLock(file, async () => 'again', { timeoutMs: 100 })).toBe('again');
  });
});
