import type { ChildProcess } from 'node:child_process';
import { mkdtemp, open, realpath, rm, stat, unlink, writeFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BRIDGE_PORT, bwrapArguments } from './bwrap-arguments.js';
import type { SandboxProgram } from './find-sandbox.js';
import { guardGitFolder } from './git-folder-guard.js';
import { type HiddenPath, hiddenPaths } from './hidden-paths.js';
import { hostSocketFolders, withoutHostSockets } from './host-sockets.js';
import { BRIDGE_MESSAGE, BRIDGE_SOURCE } from './network-bridge.js';
import type { NetworkProxy } from './network-proxy.js';
import { type SandboxConfig, type SandboxNetworkPolicy, networkPolicyOf } from './sandbox-config.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import { sandboxReason } from './sandbox-reason.js';
import { findPidsController, joinCgroupPrelude, makeProcessCgroup } from './process-cgroup.js';
import { SandboxIncompleteError } from './sandbox-incomplete-error.js';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, findPrlimit, limitsPrelude } from './sandbox-limits.js';
import { sandboxExecArguments, seatbeltProfile } from './seatbelt-profile.js';
import { unixSocketFilter } from './unix-socket-filter.js';

/** A command ready to spawn inside the sandbox. */
export interface WrappedCommand {
  /** The sandbox program; spawn it with `args`. */
  readonly file: string;
  readonly args: readonly string[];
  /** The command's environment: the one given, without the session's socket variables, with its private temp folder (and the proxy) set. */
  readonly env: Record<string, string>;
  /**
   * Spawn with these right after stdin, stdout and stderr (`stdio: [in, out, err, ...wrapped.stdio]`):
   * the Unix-socket filter bubblewrap reads, and the bridge's IPC channel under a network allowlist.
   * Empty for sandbox-exec.
   */
  readonly stdio: readonly (number | 'ipc')[];
  /** Call with the spawned process, at once: it closes cw's copy of the filter and serves the bridge. */
  attach(child: ChildProcess): void;
  /** Removes the command's private temp folder; call it once the command has ended. */
  release(): Promise<void>;
}

/** The sandbox commands of one `cw send` run in; tools find it on their context (docs/security.md). */
export interface CommandSandbox {
  readonly kind: SandboxProgram['kind'];
  /** The sandbox program's absolute path, as found (a command may be started through a prelude); never printed. */
  readonly file: string;
  readonly network: SandboxNetworkPolicy;
  /** What it hides, as found when it opened (only paths that exist); paths never printed. */
  readonly hidden: readonly HiddenPath[];
  /** What stays read-only inside the workspace besides `.git`, which each command's wrap guards. */
  readonly readOnly: readonly string[];
  /** The resource limits each command runs under; null where the sandbox cannot apply them (sandbox-exec). */
  readonly limits: SandboxLimits | null;
  /**
   * Wraps a command's argv: it starts in `cwd`, may write only the workspace, its private temp folder
   * and `writable`, in `.git` only what a commit writes, and sees neither the hidden paths nor (unless
   * allowed) the network.
   */
  wrap(
    argv: readonly string[],
    options: {
      readonly cwd: string;
      readonly env: Readonly<Record<string, string>>;
      readonly writable?: readonly string[];
    },
  ): Promise<WrappedCommand>;
  /** One line for a failed command's result, naming what the sandbox refuses (and what in `output` it caused). */
  reason(output: string): string;
  /** Stops the proxy, if one runs. */
  close(): Promise<void>;
}

/** What a sandbox is opened with. */
export interface CommandSandboxOptions {
  readonly program: SandboxProgram;
  readonly config: SandboxConfig;
  /** The workspace root, a real path: the one folder commands may write. */
  readonly workspace: string;
  /** The user's home folder, for `~/.ssh` and the rest. */
  readonly home: string;
  /** The cw home: config and every session, hidden whole. */
  readonly cwHome: string;
}

async function kindOf(path: string): Promise<'file' | 'folder' | null> {
  try {
    return (await stat(path)).isDirectory() ? 'folder' : 'file';
  } catch {
    return null;
  }
}

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}

/**
 * Opens the sandbox for one command line's run: finds what to hide, and starts the filtering proxy
 * when `sandbox.network` is an allowlist. Nothing is spawned until a command is wrapped and run.
 */
export async function openCommandSandbox(options: CommandSandboxOptions): Promise<CommandSandbox> {
  const { program, config } = options;
  const hidden: HiddenPath[] = [];
  const kinds = new Map<string, 'file' | 'folder'>();
  for (const entry of hiddenPaths({
    home: options.home,
    cwHome: options.cwHome,
    denyRead: config.deny_read,
    cwd: options.workspace,
  })) {
    // Only what exists: there is nothing to hide elsewhere, and the rest of the file system is read-only.
    const real = await realOrNull(entry.path);
    const kind = real === null ? null : await kindOf(real);
    if (real === null || kind === null || kinds.has(real)) continue;
    kinds.set(real, kind);
    hidden.push({ path: real, label: entry.label });
  }
  if (program.kind === 'bubblewrap') {
    // The session's socket folders, unless the workspace or temp folders live in them (then they stay).
    const inside = [options.workspace, await realOrNull(tmpdir())];
    for (const entry of hostSocketFolders(process.env, process.getuid?.() ?? null)) {
      const real = await realOrNull(entry.path);
      if (real === null || kinds.has(real) || (await kindOf(real)) !== 'folder') continue;
      if (inside.some((path) => path !== null && (path === real || path.startsWith(`${real}/`)))) continue;
      kinds.set(real, 'folder');
      hidden.push({ path: real, label: entry.label });
    }
  }
  // Fail closed: bubblewrap never runs a command without the filter and the limits.
  const filter = program.kind === 'bubblewrap' ? unixSocketFilter(process.arch) : null;
  if (program.kind === 'bubblewrap' && filter === null) throw new SandboxIncompleteError('seccomp');
  const prlimit = program.kind === 'bubblewrap' ? await findPrlimit() : null;
  if (program.kind === 'bubblewrap' && prlimit === null) throw new SandboxIncompleteError('prlimit');
  // Root's processes are not counted by RLIMIT_NPROC: as root, a pids cgroup per command bounds them.
  const pidsController = program.kind === 'bubblewrap' && process.getuid?.() === 0 ? await findPidsController() : null;
  const readOnly: string[] = [];
  let proxy: NetworkProxy | null = null;
  if (Array.isArray(config.network)) {
    const { startNetworkProxy } = await import('./network-proxy.js');
    // bubblewrap: the bridge hands connections over; sandbox-exec: the profile allows one loopback port.
    proxy = await startNetworkProxy(config.network, program.kind !== 'bubblewrap');
  }
  const networkPolicy = networkPolicyOf(config.network);
  const bridged = program.kind === 'bubblewrap';
  const network: SandboxPolicy['network'] =
    proxy === null
      ? { kind: networkPolicy === 'on' ? 'on' : 'off' }
      : { kind: 'proxy', bridged, port: bridged ? BRIDGE_PORT : proxy.port };
  // A config built by an embedder without the schema may lack the key: the defaults still hold.
  const limits = program.kind === 'bubblewrap' ? (config.limits ?? DEFAULT_SANDBOX_LIMITS) : null;

  return {
    kind: program.kind,
    file: program.file,
    network: networkPolicy,
    hidden,
    readOnly,
    limits,
    async wrap(argv, wrapOptions) {
      // Looked at for each command: a repository may have appeared or gone since the last one.
      const git = await guardGitFolder(options.workspace, program.kind);
      const temp = await realpath(await mkdtemp(join(tmpdir(), 'cw-sandbox-'))).catch(async (error: unknown) => {
        await git.release();
        throw error;
      });
      const extra: string[] = [];
      for (const path of wrapOptions.writable ?? []) {
        const real = await realOrNull(path);
        if (real !== null && !extra.includes(real)) extra.push(real);
      }
      const policy: SandboxPolicy = {
        writable: [options.workspace, temp, ...extra],
        hidden,
        readOnly,
        git: git.rules,
        network,
        cwd: wrapOptions.cwd,
      };
      const env: Record<string, string> = {
        ...withoutHostSockets(wrapOptions.env),
        TMPDIR: temp,
        TMP: temp,
        TEMP: temp,
      };
      if (network.kind === 'proxy') {
        const url = `http://127.0.0.1:${network.port}`;
        for (const name of ['http_proxy', 'https_proxy', 'all_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY'])
          env[name] = url;
        // Everything goes through the proxy, loopback included: inside the sandbox nothing else answers.
        env['no_proxy'] = '';
        env['NO_PROXY'] = '';
      }
      const inner =
        network.kind === 'proxy' && network.bridged
          ? [process.execPath, '-e', BRIDGE_SOURCE, String(network.port), ...argv]
          : [...argv];
      if (program.kind !== 'bubblewrap' || filter === null || prlimit === null || limits === null) {
        const args = sandboxExecArguments(seatbeltProfile(policy, kinds), inner);
        return {
          file: program.file,
          args,
          env,
          stdio: [],
          attach: () => {},
          async release() {
            await git.release();
            await rm(temp, { recursive: true, force: true });
          },
        };
      }
      // The filter reaches bubblewrap as an open file, unlinked before anything runs.
      const filterPath = join(temp, '.cw-seccomp');
      const filterFile = await writeFile(filterPath, filter, { mode: 0o600 })
        .then(() => open(filterPath, 'r'))
        .catch(async (error: unknown) => {
          await git.release();
          await rm(temp, { recursive: true, force: true });
          throw error;
        });
      await unlink(filterPath);
      let filterOpen = true;
      const closeFilter = async (): Promise<void> => {
        if (!filterOpen) return;
        filterOpen = false;
        await filterFile.close();
      };
      const args = bwrapArguments(policy, kinds, [...limitsPrelude(prlimit, limits), ...inner]);
      const cgroup = pidsController === null ? null : await makeProcessCgroup(pidsController, limits.processes);
      const [file, ...withCgroup] =
        cgroup === null ? [program.file, ...args] : joinCgroupPrelude(cgroup, [program.file, ...args]);
      return {
        file: file as string,
        args: withCgroup,
        env,
        stdio: network.kind === 'proxy' ? [filterFile.fd, 'ipc'] : [filterFile.fd],
        attach(child) {
          void closeFilter();
          if (proxy === null) return;
          const served = proxy;
          child.on('message', (message: unknown, handle: unknown) => {
            // Only a TCP connection is served: the bridge runs inside, so what it sends is not trusted.
            if (message === BRIDGE_MESSAGE && typeof handle === 'object' && handle !== null && 'setNoDelay' in handle)
              served.accept(handle as Socket);
            else if (typeof handle === 'object' && handle !== null) {
              const unwanted = handle as { destroy?: () => void; close?: () => void };
              if (typeof unwanted.destroy === 'function') unwanted.destroy();
              else unwanted.close?.();
            }
          });
        },
        release: async () => {
          await closeFilter();
          await cgroup?.remove();
          // The command has ended (nothing outlives bubblewrap's pid namespace): its commit comes back.
          await git.release();
          await rm(temp, { recursive: true, force: true });
        },
      };
    },
    reason: (output) => sandboxReason(output, { kind: program.kind, network: networkPolicy, hidden }),
    async close() {
      await proxy?.close();
    },
  };
}
