import type { Agent, ApprovalPosture, ApprovalStore, PluginRegistry, SessionScope, SnapshotOverrides } from '@cw/core';
import type { TurnView } from './turn-view.js';

/** What the interactive session carries from turn to turn; slash commands change it. */
export interface ChatState {
  readonly agent: Agent;
  readonly registry: PluginRegistry;
  /** Keeps what features open (MCP servers) until the session ends. */
  readonly scope: SessionScope;
  readonly view: TurnView;
  /** Route, model, reasoning and session for the next turn; the session is always named once started. */
  overrides: SnapshotOverrides;
  /** The approval posture over config's, if chosen. */
  approval: ApprovalPosture | undefined;
  /** The session's answers: "always" for a tool or an MCP server lasts until it ends (the core's store). */
  readonly approvals: ApprovalStore;
  /** Reads one line at the prompt `question`; null when the input ended (Ctrl-D). */
  readonly ask: (question: string) => Promise<string | null>;
}
