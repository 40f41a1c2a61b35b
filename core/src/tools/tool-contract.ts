import type { JsonValue } from '../canonical/canonical-json.js';
import type { Dirent } from 'node:fs';
import type { CommandSandbox } from '../sandbox/command-sandbox.js';
import type { OpenedBeneath } from '../sandbox/open-beneath-workspace.js';
import type { JsonSchema } from './tool-definition.js';

/** A tool call's arguments after they parsed and validated against the tool's schema. */
export type ToolArguments = { readonly [key: string]: JsonValue };

/** Bounds every tool keeps to, so one call cannot flood the model's context or hang the loop. */
export interface ToolLimits {
  /** The most bytes of output a result carries; the rest is cut with a note the model sees. */
  readonly outputBytes: number;
  /** The most lines of output a result carries. */
  readonly outputLines: number;
  /** The longest a command may run before its whole process group is killed. */
  readonly commandTimeoutMs: number;
  /** The longest one search's regular expression may run in all; a worker running it is stopped past it. */
  readonly searchTimeoutMs?: number;
}

/** What an executor receives besides its arguments. */
export interface ToolContext {
  /** The workspace root, a real absolute path. File tools act only inside it. Never printed. */
  readonly workspace: string;
  /** Aborted on Ctrl-C or when the loop stops; long-running tools must stop with it. */
  readonly signal: AbortSignal;
  /** The environment for subprocesses: the user's, without the key variable of any configured route. */
  readonly env: Readonly<Record<string, string>>;
  readonly limits: ToolLimits;
  /** The only way a tool opens a workspace file: checked on the descriptor it uses (docs/security.md). */
  readonly files: WorkspaceFiles;
  /** Where commands run: absent means as the user, unconfined (docs/security.md). */
  readonly sandbox?: CommandSandbox;
  /**
   * Present under `ask` with a person to ask: offers a one-time run outside the sandbox of a command
   * that failed inside it; true when the person agreed.
   */
  readonly offerUnsandboxedRun?: (reason: string) => Promise<boolean>;
  /** Present when cw can tie a command's life to its own: how a command tool must start its process. */
  readonly binding?: CommandBinding;
}

/**
 * Ties a command's process to cw's life from its first instruction (docs/agent-loop.md, "Nothing
 * outlives cw"): spawn `argv(...)` with a pipe at `channelFd`, then `start` it.
 */
export interface CommandBinding {
  /** The stdio index the spawn must give a pipe. */
  readonly channelFd: number;
  /** The argv to spawn (or to wrap in the sandbox, `sandboxed`) for `argv`. */
  argv(argv: readonly string[], sandboxed: boolean): readonly string[];
  /** Lets the spawned command run; false when it must not (cw was stopping, or it never came up), and it then runs nothing. */
  start(channel: import('node:stream').Duplex, signal: AbortSignal): Promise<boolean>;
}

/**
 * Files beneath the workspace, opened the one way cw's own code opens them: the descriptor is judged,
 * never a path checked earlier. A refusal is thrown as an error whose `refusal` is the one line to show.
 */
export interface WorkspaceFiles {
  /** Opens an absolute path for reading; its real path must be inside the workspace and not hidden. */
  open(
    target: string,
    options?: { readonly noFollow?: boolean; readonly directory?: boolean },
  ): Promise<OpenedWorkspaceEntry>;
  /** An opened folder's entries, read through its descriptor; hidden ones left out and counted. */
  list(folder: OpenedWorkspaceEntry): Promise<{ readonly entries: Dirent[]; readonly hidden: number }>;
  /** The path of `name` inside an opened folder, bound to that folder while it stays open. */
  child(folder: OpenedWorkspaceEntry, name: string): string;
  /** Replaces an opened file's content atomically, inside the folder it was opened in; `.git` is refused. */
  replace(file: OpenedWorkspaceEntry, content: string | Uint8Array): Promise<void>;
  /** The one line refusing a write to a workspace-relative path, or null when it may be written. */
  writeRefusal(relativePath: string): string | null;
}

/** A file or folder a tool opened through WorkspaceFiles; the tool closes its handle. */
export type OpenedWorkspaceEntry = OpenedBeneath;

/** An image a tool result carries, base64, in a type every image-taking route accepts. */
export interface ToolImage {
  readonly media_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  readonly data: string;
}

/** What a call produced, as the model will read it. */
export interface ToolOutcome {
  /** `error` marks a call that ran and failed (or was refused by the tool itself); the model sees it. */
  readonly status: 'ok' | 'error';
  readonly content: string;
  /** Images for routes that take them; `content` marks their places (docs/mcp.md). */
  readonly images?: readonly ToolImage[];
}

/** A tool a plugin registers: its definition for the catalog and the executor that runs its calls. */
export interface ToolImplementation {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /**
   * True when the tool only reads: it may run under the read-only posture and in parallel with other
   * read-only calls. Anything that writes, runs commands or reaches the network is not read-only.
   */
  readonly readOnly: boolean;
  /** Runs one call. A thrown error becomes a failed result the model reads, never a crash. */
  readonly execute: (args: ToolArguments, context: ToolContext) => Promise<ToolOutcome>;
  /** A short, terminal-safe summary of the arguments for the status line (a path, a pattern). */
  readonly summarize?: (args: ToolArguments) => string;
  /** For command tools: the command line, which approval rules match by prefix. */
  readonly commandOf?: (args: ToolArguments) => string | null;
  /** For MCP tools: the server, which `mcp__<server>__*` rules name (docs/mcp.md). */
  readonly mcpServer?: string;
  /**
   * Lines a person reads before approving a call: what it will do (docs/mcp.md). Bounded and
   * redacted by the tool; printed only in the approval question.
   */
  readonly describeForApproval?: (args: ToolArguments) => readonly string[];
  /**
   * For tools that write a file: the file and what the call would write, so the approval shows it as
   * a diff and the result counts the lines changed (docs/agent-loop.md); null when the call names none.
   */
  readonly fileChange?: (args: ToolArguments) => ProposedFileChange | null;
}

/** The change a call would make to one file: its whole new content, or exact replacements in order. */
export type ProposedFileChange =
  | { readonly path: string; readonly content: string }
  | { readonly path: string; readonly edits: readonly { readonly oldText: string; readonly newText: string }[] };
