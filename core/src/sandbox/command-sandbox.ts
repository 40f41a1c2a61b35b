import { mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BRIDGE_PORT, bwrapArguments } from './bwrap-arguments.js';
import type { SandboxProgram } from './find-sandbox.js';
import { guardGitFolder } from './git-folder-guard.js';
import { type HiddenPath, hiddenPaths } from './hidden-paths.js';
import { BRIDGE_SOURCE } from './network-bridge.js';
import type { NetworkProxy } from './network-proxy.js';
import { type SandboxConfig, type SandboxNetworkPolicy, networkPolicyOf } from './sandbox-config.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import { sandboxReason } from './sandbox-reason.js';
import { sandboxExecArguments, seatbeltProfile } from './seatbelt-profile.js';

/** A command ready to spawn inside the sandbox. */
export interface WrappedCommand {
  /** The sandbox program; spawn it with `args`. */
  readonly file: string;
  readonly args: readonly string[];
  /** The command's environment: the one given, with its private temp folder (and the proxy) set. */
  readonly env: Record<string, string>;
  /** Removes the command's private temp folder; call it once the command has ended. */
  release(): Promise<void>;
}

/** The sandbox commands of one `cw send` run in; tools find it on their context (docs/security.md). */
export interface CommandSandbox {
  readonly kind: SandboxProgram['kind'];
  readonly network: SandboxNetworkPolicy;
  /** What it hides, as found when it opened (only paths that exist); paths never printed. */
  readonly hidden: readonly HiddenPath[];
  /** What stays read-only inside the workspace besides `.git`, which each command's wrap guards. */
  readonly readOnly: readonly string[];
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
  const readOnly: string[] = [];
  let proxy: NetworkProxy | null = null;
  let proxyFolder: string | null = null;
  if (Array.isArray(config.network)) {
    const { startNetworkProxy } = await import('./network-proxy.js');
    if (program.kind === 'bubblewrap') {
      proxyFolder = await mkdtemp(join(tmpdir(), 'cw-proxy-'));
      proxy = await startNetworkProxy(config.network, join(proxyFolder, 'proxy.sock'));
    } else {
      proxy = await startNetworkProxy(config.network, null);
    }
  }
  const networkPolicy = networkPolicyOf(config.network);
  const network: SandboxPolicy['network'] =
    proxy === null
      ? { kind: networkPolicy === 'on' ? 'on' : 'off' }
      : { kind: 'proxy', socket: proxy.socket, port: proxy.socket === null ? proxy.port : BRIDGE_PORT };

  return {
    kind: program.kind,
    network: networkPolicy,
    hidden,
    readOnly,
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
      const env: Record<string, string> = { ...wrapOptions.env, TMPDIR: temp, TMP: temp, TEMP: temp };
      if (network.kind === 'proxy') {
        const url = `http://127.0.0.1:${network.port}`;
        for (const name of ['http_proxy', 'https_proxy', 'all_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY'])
          env[name] = url;
        // Everything goes through the proxy, loopback included: inside the sandbox nothing else answers.
        env['no_proxy'] = '';
        env['NO_PROXY'] = '';
      }
      const inner =
        network.kind === 'proxy' && network.socket !== null
          ? [process.execPath, '-e', BRIDGE_SOURCE, network.socket, String(network.port), ...argv]
          : [...argv];
      const args =
        program.kind === 'bubblewrap'
          ? bwrapArguments(policy, kinds, inner)
          : sandboxExecArguments(seatbeltProfile(policy, kinds), inner);
      return {
        file: program.file,
        args,
        env,
        async release() {
          // The command has ended (nothing outlives bubblewrap's pid namespace): its commit comes back.
          await git.release();
          await rm(temp, { recursive: true, force: true });
        },
      };
    },
    reason: (output) => sandboxReason(output, { kind: program.kind, network: networkPolicy, hidden }),
    async close() {
      await proxy?.close();
      if (proxyFolder !== null) await rm(proxyFolder, { recursive: true, force: true });
    },
  };
}
