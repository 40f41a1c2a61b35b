import { GIT_COMMIT_WRITABLE } from './git-write-rules.js';
import type { SandboxPolicy } from './sandbox-policy.js';

/** A sandbox-exec profile and the parameters it refers to (paths go in as `-D` parameters, never into the text). */
export interface SeatbeltProfile {
  readonly profile: string;
  readonly parameters: ReadonlyArray<readonly [string, string]>;
}

/**
 * The macOS profile for one command: reads everywhere but the hidden paths, writes only in the
 * writable folders (and the terminal devices), `.git` read-only but for what a commit writes, and network
 * as the policy says. Deny rules come after allow rules: in SBPL the last matching rule wins.
 */
export function seatbeltProfile(
  policy: SandboxPolicy,
  hiddenKinds: ReadonlyMap<string, 'file' | 'folder'>,
): SeatbeltProfile {
  const parameters: [string, string][] = [];
  const param = (path: string): string => {
    const name = `P${parameters.length}`;
    parameters.push([name, path]);
    return `(param "${name}")`;
  };
  const filter = (path: string, kind: 'file' | 'folder'): string =>
    kind === 'file' ? `(literal ${param(path)})` : `(subpath ${param(path)})`;
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork signal)',
    '(allow sysctl-read mach-lookup ipc-posix-shm iokit-open)',
    '(allow file-read*)',
    `(allow file-write* ${['/dev/null', '/dev/zero', '/dev/tty', '/dev/dtracehelper'].map((dev) => `(literal "${dev}")`).join(' ')})`,
  ];
  if (policy.writable.length > 0)
    lines.push(`(allow file-write* ${policy.writable.map((folder) => filter(folder, 'folder')).join(' ')})`);
  // `.git` read-only, renaming and creating it too, but for what a commit writes (docs/security.md).
  for (const path of policy.git?.readOnly ?? []) lines.push(`(deny file-write* ${filter(path, 'folder')})`);
  const commitFolder = policy.git?.commitFolder ?? null;
  if (commitFolder !== null)
    lines.push(
      `(allow file-write* ${GIT_COMMIT_WRITABLE.map((name) => `${filter(`${commitFolder}/${name}`, 'folder')} ${filter(`${commitFolder}/${name}.lock`, 'file')}`).join(' ')})`,
    );
  for (const hidden of policy.hidden)
    lines.push(`(deny file-read* file-write* ${filter(hidden.path, hiddenKinds.get(hidden.path) ?? 'folder')})`);
  for (const path of policy.readOnly) lines.push(`(deny file-write* ${filter(path, 'folder')})`);
  switch (policy.network.kind) {
    case 'off':
      break;
    case 'on':
      lines.push('(allow network*)');
      break;
    case 'proxy':
      // Only cw's proxy, on loopback; it decides which hosts are reached.
      lines.push(`(allow network-outbound (remote ip "localhost:${policy.network.port}"))`);
      break;
    default: {
      const unknown: never = policy.network;
      throw new Error(`unknown network policy ${JSON.stringify(unknown)}`);
    }
  }
  return { profile: `${lines.join('\n')}\n`, parameters };
}

/** sandbox-exec's arguments for one command under a profile. */
export function sandboxExecArguments(profile: SeatbeltProfile, argv: readonly string[]): string[] {
  return [...profile.parameters.flatMap(([name, value]) => ['-D', `${name}=${value}`]), '-p', profile.profile, ...argv];
}
