import { readFile } from 'node:fs/promises';

/** A process as a lock records it: its pid, and its start time where the system tells it, so a reused pid is not mistaken for the owner. */
export interface ProcessIdentity {
  readonly pid: number;
  /** The kernel's start time of the process (clock ticks since boot on Linux), or null where unknown. */
  readonly startTime: string | null;
}

/** The identity of a running process, read from /proc where there is one. */
export async function processIdentity(pid: number): Promise<ProcessIdentity> {
  return { pid, startTime: await startTimeOf(pid) };
}

/**
 * Whether the process a lock recorded is still the one running under that pid. A pid that is gone,
 * or that now belongs to a process started at another time, means the owner died.
 */
export async function isAlive(owner: ProcessIdentity): Promise<boolean> {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the pid exists but belongs to another user, so it is alive.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.startTime === null) return true;
  const now = await startTimeOf(owner.pid);
  return now === null || now === owner.startTime;
}

async function startTimeOf(pid: number): Promise<string | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; the fields after its last `)` do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Field 22, starttime, is the 20th after the command name.
    return fields[19] ?? null;
  } catch {
    return null;
  }
}
