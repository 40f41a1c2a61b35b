import type { SandboxPolicy } from './sandbox-policy.js';
import { SECCOMP_FD } from './unix-socket-filter.js';

/** The port cw's proxy answers on inside the sandbox's own network namespace (nothing else listens there). */
export const BRIDGE_PORT = 3128;

/**
 * bubblewrap's arguments for one command (docs/security.md). Order matters: later mounts cover
 * earlier ones, so the writable folders come after the read-only root, and the hidden and read-only
 * paths after the writable folders, so a hidden path inside the workspace stays hidden.
 */
export function bwrapArguments(
  policy: SandboxPolicy,
  hiddenKinds: ReadonlyMap<string, 'file' | 'folder'>,
  argv: readonly string[],
): string[] {
  const args = [
    '--die-with-parent',
    // A new session: the command cannot push keystrokes into cw's terminal (TIOCSTI).
    '--new-session',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    // No capability inside, even when cw runs as root: no mount, umount or remount (docs/security.md).
    '--cap-drop',
    'ALL',
    // The Unix-socket filter, read from the fd the spawn puts it on (docs/security.md, "Host sockets").
    '--seccomp',
    String(SECCOMP_FD),
  ];
  // Without the host's network the namespace has only `lo`: every connection out is refused.
  if (policy.network.kind !== 'on') args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  for (const folder of policy.writable) args.push('--bind', folder, folder);
  // The workspace's `.git`: a staging folder over it, the real one's parts bound back (git-folder-guard.ts).
  for (const mount of policy.git?.mounts ?? [])
    args.push(mount.writable ? '--bind' : '--ro-bind', mount.source, mount.target);
  for (const hidden of policy.hidden) {
    if (hiddenKinds.get(hidden.path) === 'file') args.push('--ro-bind', '/dev/null', hidden.path);
    else args.push('--tmpfs', hidden.path, '--remount-ro', hidden.path);
  }
  for (const path of policy.readOnly) args.push('--ro-bind', path, path);
  args.push('--chdir', policy.cwd, '--', ...argv);
  return args;
}
