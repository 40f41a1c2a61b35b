import type { ReconciledToolChoice, WireToolSpec } from '../body/wire-body.js';
import type { CapabilityRow } from '../route/capability-row.js';
import type { OmissionCode, RelaxationCode } from './projection/projection-codes.js';
import type { ToolDefinition } from './tool-definition.js';

// The projection's inputs and result as types only: the hooks declare the projectTools waterfall
// over them, and the engine (project-tools.ts) taps that hook, so the types live apart from both.

/** tool_choice as the agent asks for it, before the route has a say. */
export type LogicalToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

/** What happened to one tool on this route. Names are raw here; everything that prints them redacts. */
export type ToolOutcome =
  | { readonly name: string; readonly outcome: 'exact' }
  | { readonly name: string; readonly outcome: 'relaxed'; readonly rules: readonly RelaxationCode[] }
  | { readonly name: string; readonly outcome: 'omitted'; readonly reason: OmissionCode };

/** What the body carries for tool_choice, for a warning: a form, nothing, or no tools at all. */
export type SentToolChoice = 'auto' | 'none' | 'required' | 'named' | 'omitted' | 'tools-dropped';

/** One omitted tool as a warning may show it: a redacted name and a code. */
export interface OmittedToolNotice {
  readonly name: string;
  readonly reason: OmissionCode;
}

/**
 * The one typed warning of a request whose tool surface is not what the agent asked for: tools
 * left off, or a tool_choice the route made into something else. It rides on the projection, so
 * preview, streaming and blocking dispatch all carry the same value. Safe to print as is: names are
 * redacted, everything else is a count or a code.
 */
export interface ToolProjectionWarning {
  readonly code: 'tool-projection-degraded';
  /** At most eight omitted tools, in catalog order. */
  readonly omitted: readonly OmittedToolNotice[];
  readonly omitted_count: number;
  /** Omitted tools beyond the listed ones. */
  readonly more: number;
  /** Set when tool_choice was not sent as asked. */
  readonly tool_choice: { readonly requested: 'none' | 'required' | 'named'; readonly sent: SentToolChoice } | null;
  /** One line for a terminal, built only from the fields above. */
  readonly message: string;
}

/** The one projection result that preview, streaming and blocking dispatch all read. */
export interface ToolProjection {
  readonly wireTools: readonly WireToolSpec[];
  readonly toolChoice: ReconciledToolChoice;
  /** One entry per active catalog tool, in catalog order. */
  readonly outcomes: readonly ToolOutcome[];
  /** One entry per deferred catalog tool, projected the same way, for tool search. */
  readonly deferred: readonly ToolOutcome[];
  /** The deferred tools this route can be sent, projected: the only ones a tool search may advertise. */
  readonly deferredWireTools: readonly WireToolSpec[];
  readonly warning: ToolProjectionWarning | null;
}

/** The inputs of projection. */
export interface ProjectionContext {
  readonly row: CapabilityRow;
  /** The active catalog, in order: what a route without restrictions would receive. */
  readonly tools: readonly ToolDefinition[];
  /** Deferred catalog tools: discoverable through tool search, not sent up front. */
  readonly deferredTools?: readonly ToolDefinition[];
  readonly toolChoice: LogicalToolChoice;
  /** Whether the body will carry a reasoning control (some routes then refuse tool_choice). */
  readonly reasoningActive: boolean;
}
