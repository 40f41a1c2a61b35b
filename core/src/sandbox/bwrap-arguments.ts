import type { SandboxPolicy } from './sandbox-policy.js';

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
  if (policy.network.kind === 'proxy' && policy.network.socket !== null) {
    // The proxy's socket folder, so the bridge inside can reach the proxy outside.
    const folder = policy.network.socket.slice(0, policy.network.socket.lastIndexOf('/'));
    args.push('--bind', folder, folder);
  }
  args.push('--chdir', policy.cwd, '--', ...argv);
  return args;
}
