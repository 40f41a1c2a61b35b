import type { CwConfig } from '../config/cw-config.js';
import type { SandboxState } from '../sandbox/find-sandbox.js';
import type { PromptLayer } from '../context/prompt-layer.js';
import type { WorkingContext } from '../submit/resolve-prompt.js';
import type { PluginRegistry } from '../plugins/plugin-registry.js';
import type { PendingSkill } from '../skills/load-pending-skill.js';
import type { ConversationMessage } from '../prompt/conversation.js';
import type { ToolDefinition } from '../tools/tool-definition.js';

/** MCP tool state as a turn would see it: off, a snapshot still matching the config, or not knowable offline. */
export type McpState =
  | { readonly kind: 'disabled' }
  | { readonly kind: 'snapshot'; readonly serverCount: number }
  | { readonly kind: 'not-snapshottable'; readonly detail: string };

/** State a real turn would act on before sending; preview reads it and never consumes it. */
export interface PendingState {
  /** Configured message-submit hooks: a real submit runs them and they may rewrite the text. */
  readonly messageSubmitHooks: number;
  /** A prompt-resolution failure (file mentions, skills) as a real submit would hit it. */
  readonly promptResolutionError: string | null;
  /** Runtime transforms that would rewrite the request before sending (compaction, injections). */
  readonly runtimeTransforms: readonly string[];
  /** Active goal gate: unknown when its state cannot be read exactly. */
  readonly goal: 'none' | 'within-budget' | 'budget-exhausted' | 'not-snapshottable';
  /** Auto model routing: the route is chosen by a classifier a preview must not run. */
  readonly autoRouting: boolean;
}

/** Everything a turn is prepared from. Read-only: preparing a request never mutates it. */
export interface CwSnapshot {
  readonly config: CwConfig;
  readonly registry: PluginRegistry;
  /** The route used when config names none (the CLI supplies it; the core names no provider). */
  readonly defaultRouteId: string;
  /** The session: its name as people see it, its key (where its files are: docs/cli.md), its history. */
  readonly session: { readonly name: string; readonly key: string; readonly messages: readonly ConversationMessage[] };
  /** The full canonical catalog: built-in tools plus the MCP snapshot's tools. */
  readonly catalog: readonly ToolDefinition[];
  readonly mcp: McpState;
  readonly pending: PendingState;
  /**
   * Where prompts are resolved (file mentions, workspace skills): present when the snapshot was
   * loaded for a working folder, as the CLI does; absent, a prompt is sent as typed.
   */
  readonly workingContext?: WorkingContext;
  /** System-prompt layers after the base (AGENTS.md, turn context); absent or empty means the base only. */
  readonly promptLayers?: readonly PromptLayer[];
  /** Under auto routing: the route chosen for the session's latest prompt, which a loop continuation stays on. */
  readonly autoRouteChoice?: string | null;
  /** The skill `cw skills use` set for the next prompt (docs/skills.md); absent or null means none. */
  readonly pendingSkill?: PendingSkill | null;
  /** What would confine commands, found without running anything; absent when the machine was not looked at. */
  readonly sandbox?: SandboxState;
}

/** Pending state of a session with nothing pending. */
export const NOTHING_PENDING: PendingState = {
  messageSubmitHooks: 0,
  promptResolutionError: null,
  runtimeTransforms: [],
  goal: 'none',
  autoRouting: false,
};
