import type { HiddenPath } from './hidden-paths.js';
import type { SandboxNetworkPolicy } from './sandbox-config.js';

// What a refusal looks like from inside: the errors the sandbox's mounts and namespaces produce.
const READ_ONLY = /read-only file system|EROFS/i;
const DENIED = /permission denied|operation not permitted|EACCES|EPERM/i;
const NETWORK =
  /network is unreachable|connection refused|could not resolve|name resolution|ENETUNREACH|ECONNREFUSED|EAI_AGAIN|ENOTFOUND|403 Forbidden|sandbox\.network allowlist/i;
const MISSING = /no such file or directory|ENOENT/i;
// A mount point (`.git`) cannot be renamed or removed.
const BUSY = /device or resource busy|EBUSY/i;
// The Unix-socket filter, the process limit and the file size limit (docs/security.md, "Root, host sockets and limits").
const UNIX_SOCKET = /connect\w*\b[^\n]*(?:EPERM|operation not permitted)/i;
const NO_FORK = /cannot fork|fork: (?:retry: )?resource temporarily unavailable|spawn[^\n]*EAGAIN/i;
const TOO_LARGE = /file size limit exceeded|file too large|EFBIG/i;

/**
 * The line a failed sandboxed command's result ends with: what the sandbox enforces and, when the
 * output shows it, which refusal it was, so the model can tell the sandbox from a bug. Labels only
 * (`~/.ssh`, `cw home`), never a path.
 */
export function sandboxReason(
  output: string,
  sandbox: { readonly kind: string; readonly network: SandboxNetworkPolicy; readonly hidden: readonly HiddenPath[] },
): string {
  const causes: string[] = [];
  if (READ_ONLY.test(output))
    causes.push(
      /\.git\b/.test(output)
        ? 'a write inside .git was refused (read-only but for what a commit writes)'
        : 'a write outside the workspace was refused (read-only outside it)',
    );
  if (NETWORK.test(output))
    causes.push(
      sandbox.network === 'off'
        ? 'a network connection was refused (sandbox.network is off)'
        : sandbox.network === 'allowlist'
          ? 'a connection to a host not on the sandbox.network allowlist was refused'
          : 'a connection failed',
    );
  if (UNIX_SOCKET.test(output)) causes.push('a Unix socket was refused (none can be made inside the sandbox)');
  if (NO_FORK.test(output)) causes.push('a new process was refused (sandbox.limits.processes)');
  if (TOO_LARGE.test(output)) causes.push('a file grew past sandbox.limits.file_size_mb');
  if (DENIED.test(output) && !UNIX_SOCKET.test(output)) causes.push('access was denied (a hidden or read-only path)');
  if (BUSY.test(output)) causes.push(".git cannot be renamed, removed or replaced (it stays the user's)");
  if (MISSING.test(output) && sandbox.hidden.length > 0) causes.push('a path was not found (hidden paths look empty)');
  const hidden = sandbox.hidden.map((entry) => entry.label).join(', ');
  const rules = `only the workspace and a private temp folder are writable; in .git only what a commit writes (objects, refs, index, HEAD); hidden: ${hidden === '' ? 'none found' : hidden}; network ${sandbox.network}`;
  return `[sandbox ${sandbox.kind}: ${causes.length > 0 ? `${causes.join('; ')}. ` : ''}${rules}. Ask the user if the task needs more.]`;
}
