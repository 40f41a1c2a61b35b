// Linux does not count root's processes against RLIMIT_NPROC (kernel/fork.c exempts uid 0 whatever its
// capabilities), so when cw runs as root the process limit needs the pids controller instead: each
// command runs in a cgroup of its own whose `pids.max` is the limit (docs/security.md, "Root, host
// sockets and limits"). Used only as root: another user cannot make cgroups, and RLIMIT_NPROC holds
// for it inside bubblewrap's user namespace.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the pids controller is mounted, v1 or v2 with pids enabled below the root; null when neither. */
export async function findPidsController(): Promise<string | null> {
  let mounts: string;
  try {
    mounts = await readFile('/proc/self/mountinfo', 'utf8');
  } catch {
    return null;
  }
  for (const line of mounts.split('\n')) {
    const [before, after] = line.split(' - ');
    const point = before?.split(' ')[4];
    const [type, , options] = after?.split(' ') ?? [];
    // An escaped mount point (a space, a newline) is not one cw made or expects.
    if (point === undefined || point.includes('\\')) continue;
    if (type === 'cgroup' && options?.split(',').includes('pids')) return point;
    if (type === 'cgroup2') {
      const enabled = await readFile(join(point, 'cgroup.subtree_control'), 'utf8').catch(() => '');
      if (enabled.split(/\s+/).includes('pids')) return point;
    }
  }
  return null;
}

/** One command's cgroup: `procs` is the file a process writes its pid to, to join it before it starts. */
export interface ProcessCgroup {
  readonly procs: string;
  /** Removes the cgroup once the command's processes are gone; a cgroup still busy is left, empty of rules. */
  remove(): Promise<void>;
}

/** Makes a cgroup under `controller` that holds at most `processes` processes; null if it cannot. */
export async function makeProcessCgroup(controller: string, processes: number): Promise<ProcessCgroup | null> {
  const folder = join(controller, `cw-sandbox-${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(folder);
    await writeFile(join(folder, 'pids.max'), String(processes));
  } catch {
    await rmdir(folder).catch(() => {});
    return null;
  }
  return {
    procs: join(folder, 'cgroup.procs'),
    async remove() {
      // The pid namespace's processes die with its first one; give the kernel a moment to reap them.
      for (let attempt = 0; attempt < 20; attempt += 1) {
        try {
          await rmdir(folder);
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    },
  };
}

/**
 * The argv that joins the cgroup and then runs `argv`: `/bin/sh` writes its own pid, then replaces
 * itself with the command, so everything the command starts is counted. A non-interactive `sh`
 * reads no startup file, whatever the environment says.
 */
export function joinCgroupPrelude(cgroup: ProcessCgroup, argv: readonly string[]): string[] {
  return ['/bin/sh', '-c', 'echo $$ > "$0" && exec "$@"', cgroup.procs, ...argv];
}
