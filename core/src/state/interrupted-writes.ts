import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

// A cw killed inside writeFileAtomic leaves its temp file behind: a whole copy of what it was
// writing, the conversation included. The next cw command on those sessions removes such files, and
// only those: names of the temp pattern whose writer is gone (docs/agent-loop.md, "After a crash").

/** The temp name of an atomic write: its writer's pid and a random part. */
export function tempNameFor(pid: number, random: string): string {
  return `.${pid}-${random}.tmp`;
}

const TEMP_NAME = /^\.(?:(\d{1,10})-)?[0-9a-f]{12}\.tmp$/;
// Older names carry no pid: a write takes milliseconds, so one this old was left by a killed writer.
const UNNAMED_STALE_MS = 60_000;

/** Removes the temp files of interrupted writes in `folder`; returns how many went. Never throws. */
export async function removeInterruptedWrites(folder: string): Promise<number> {
  const entries = await readdir(folder).catch(() => [] as string[]);
  let removed = 0;
  for (const entry of entries) {
    const match = TEMP_NAME.exec(entry);
    if (match === null) continue;
    const path = join(folder, entry);
    const pid = match[1] === undefined ? null : Number(match[1]);
    if (pid !== null ? pidAlive(pid) : !(await olderThan(path, UNNAMED_STALE_MS))) continue;
    if (
      await rm(path, { force: true }).then(
        () => true,
        () => false,
      )
    )
      removed++;
  }
  return removed;
}

function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function olderThan(path: string, ms: number): Promise<boolean> {
  return stat(path).then(
    (info) => Date.now() - info.mtimeMs > ms,
    () => false,
  );
}
