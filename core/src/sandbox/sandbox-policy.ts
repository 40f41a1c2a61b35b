import type { GitSandboxRules } from './git-folder-guard.js';
import type { HiddenPath } from './hidden-paths.js';

/** What one sandboxed command may touch, as both sandbox programs are told it. Every path is absolute and real. */
export interface SandboxPolicy {
  /** Folders the command may write: the workspace, its private temp folder, paths an MCP server's args name. */
  readonly writable: readonly string[];
  /** Paths it may not see at all; only those that exist. */
  readonly hidden: readonly HiddenPath[];
  /** Paths inside a writable folder that stay read-only. */
  readonly readOnly: readonly string[];
  /** How the workspace's `.git` is kept the user's (docs/security.md, "The user's own git stays theirs"). */
  readonly git?: GitSandboxRules;
  /** `off`: no network; `on`: the host's; `proxy`: only through cw's filtering proxy (`bridged`: reached through the bridge inside). */
  readonly network:
    | { readonly kind: 'off' }
    | { readonly kind: 'on' }
    | { readonly kind: 'proxy'; readonly bridged: boolean; readonly port: number };
  /** The folder the command starts in. */
  readonly cwd: string;
}
