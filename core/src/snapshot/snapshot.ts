import type { CwConfig } from '../config/cw-config.js';
import type { SandboxState } from '../sandbox/find-sandbox.js';
import type { EnvironmentCounts } from '../agent/tool-environment.js';
import type { PromptLayer } from '../context/prompt-layer.js';
import type { SnapshotRegistry } from './snapshot-registry.js';
import type { ConversationMessage } from '../prompt/conversation.js';
import type { ToolDefinition } from '../tools/tool-definition.js';

/** Where a prompt is resolved: the workspace (real path) and the folder cw runs in (real path). */
export interface WorkingContext {
  readonly workspace: string;
  readonly cwd: string;
}

/** MCP tool state as a turn would see it: off, a snapshot still matching the config, or not knowable offline. */
export type McpState =
  | { readonly kind: 'disabled' }
  | { readonly kind: 'snapshot'; readonly serverCount: number }
  | { readonly kind: 'not-snapshottable'; readonly detail: string };

/** State a real turn would act on before sending that no feature owns; preview reads it and never consumes it. */
export interface PendingState {
  /** Runtime transforms that would rewrite the request before sending (injections a host declares). */
  readonly runtimeTransforms: readonly string[];
}

/** Each turn feature's session state, by feature name, as its `loadState` tap read it (docs/architecture.md). */
export type FeatureStates = Readonly<Record<string, unknown>>;

/** Everything a turn is prepared from. Read-only: preparing a request never mutates it. */
export interface CwSnapshot {
  readonly config: CwConfig;
  readonly registry: SnapshotRegistry;
  /** The route used when config names none (the CLI supplies it; the core names no provider). */
  readonly defaultRouteId: string;
  /** The session: its name as people see it, its key (where its files are: docs/cli.md), its history. */
  readonly session: { readonly name: string; readonly key: string; readonly messages: readonly ConversationMessage[] };
  /** The full canonical catalog: built-in tools plus the MCP snapshot's tools. */
  readonly catalog: readonly ToolDefinition[];
  readonly mcp: McpState;
  readonly pending: PendingState;
  /** Per-feature state (the goal's gate, a pending skill, auto routing's choice): read through featureState. */
  readonly features: FeatureStates;
  /**
   * `side` for a side request a feature sends for the turn (a classification, a summary): gates that
   * guard a person's turn (submit hooks, auto routing) leave it alone; the goal still counts it.
   */
  readonly purpose?: 'turn' | 'side';
  /**
   * Where prompts are resolved (file mentions, workspace skills): present when the snapshot was
   * loaded for a working folder, as the CLI does; absent, a prompt is sent as typed.
   */
  readonly workingContext?: WorkingContext;
  /** System-prompt layers after the base (AGENTS.md); absent or empty means the base only. */
  readonly promptLayers?: readonly PromptLayer[];
  /**
   * The turn-context block of this folder and day, which leads a new user message when it differs
   * from the last one the session stored (docs/project-context.md); absent when it is off.
   */
  readonly turnContext?: string;
  /** What would confine commands, found without running anything; absent when the machine was not looked at. */
  readonly sandbox?: SandboxState;
  /** Project MCP servers left out because a workspace file they run changed since they were trusted (docs/mcp.md). */
  readonly changedProjectMcpServers?: readonly string[];
  /** The workspace files the trusted project MCP servers run, by digest, checked again before each starts. */
  readonly projectMcpFiles?: ProjectMcpFiles;
  /** How cw's environment splits for the commands it starts (counts only); absent when it was not looked at. */
  readonly environment?: EnvironmentCounts;
}

/** Where the trusted project MCP servers' files were looked up, and their digests as trusted. */
export interface ProjectMcpFiles {
  readonly workspace: string;
  readonly cwd: string;
  readonly digests: Readonly<Record<string, string | null>>;
}

/** Pending state of a session with nothing pending. */
export const NOTHING_PENDING: PendingState = { runtimeTransforms: [] };
