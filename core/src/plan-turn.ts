import type { TurnInput } from './plan/turn-input.js';
import type { Entrypoint } from './body/wire-body.js';
import type { UnavailableReason } from './plan/unavailable-reason.js';
import { ContextOverflowError } from './plan/context-overflow-error.js';
import { measureBody, type MeasuredBody } from './plan/measure-body.js';
import { TurnBlockedError } from './plan/turn-blocked-error.js';
import {
  prepareOutboundRequest,
  RequestPreparationError,
  type PreparedOutboundRequest,
  type PreparedToolSurface,
} from './prepare-outbound-request.js';
import { safeErrorText } from './redaction/index.js';
import { RoutePlanError } from './route/resolve-route.js';
import type { CwSnapshot } from './snapshot/snapshot.js';
import type { TurnPrompt } from './prompt/user-message.js';
import { ToolChoiceError } from './tools/project-tools.js';
import { gateTurn, transformsDue } from './turn/gate-turn.js';

export type { TurnInput };

/** A turn that may go out exactly as prepared. */
export interface ReadyTurn {
  readonly status: 'ready';
  readonly input: TurnInput;
  readonly prepared: PreparedOutboundRequest;
  readonly measured: MeasuredBody;
}

/**
 * A turn that cannot go out as it stands. What was decided before the blocking stage stays exact:
 * a prepared request when the body was built, a tool surface when projection ran.
 */
export interface BlockedTurn {
  readonly status: 'blocked';
  readonly input: TurnInput | null;
  readonly reason: UnavailableReason;
  /** Already redacted; null when the reason says it all. */
  readonly detail: string | null;
  /** The typed error send rethrows. */
  readonly error: Error;
  readonly prepared: PreparedOutboundRequest | null;
  readonly toolSurface: PreparedToolSurface | null;
  /** Set when the body was built and measured. */
  readonly measured: MeasuredBody | null;
  /**
   * True when only transforms a feature performs under the session lock stop the turn (auto-compaction,
   * docs/compaction.md): cw send asks `resolveBlock` and plans again; preview reports
   * `runtime-transforms-before-send`.
   */
  readonly resolvable: boolean;
}

/** What the core decided about the next turn: preview renders it, send acts on it. */
export type TurnPlan = ReadyTurn | BlockedTurn;

/**
 * Plans the next turn once, with every reason a turn can be stopped in one place and in the order a
 * real turn meets them: pending state and the prompt, then route, projection and body, then MCP
 * tools that cannot be known offline, transforms that would rewrite the body (auto-compaction among
 * them), and the input budget.
 */
export function planTurn(loaded: CwSnapshot, prompt: TurnPrompt | undefined, entrypoint: Entrypoint): TurnPlan {
  // Without a prompt, a session whose last message is a tool result is a loop that stopped between
  // steps: its next request is the continuation, and that is what is planned.
  const input: TurnInput | null = prompt !== undefined ? 'prompt' : awaitsContinuation(loaded) ? 'continuation' : null;
  const snapshot = loaded;
  // The features' gates first, in stage order (docs/architecture.md), then the core's own: nothing to send.
  const early = gateTurn(snapshot, input, 'plan');
  if (early !== null || input === null) {
    const reason = early?.reason ?? 'no-hypothetical-prompt-supplied';
    const detail = early?.detail ?? null;
    return blocked(reason, detail, new TurnBlockedError(reason, detail, early?.remedy), { input });
  }
  const stop = (
    reason: UnavailableReason,
    detail: string | null,
    error: Error,
    known: BlockedKnown = {},
  ): BlockedTurn => blocked(reason, detail, error, { ...known, input });

  let prepared: PreparedOutboundRequest;
  try {
    prepared = prepareOutboundRequest(snapshot, prompt, entrypoint);
  } catch (error) {
    if (error instanceof RoutePlanError) return stop('route-plan-failed', safeErrorText(error.message), error);
    // Projection failed: there is no tool surface to describe, so all three sections fail together.
    if (error instanceof ToolChoiceError)
      return stop('request-preparation-failed', safeErrorText(error.message), error);
    if (error instanceof RequestPreparationError) {
      return stop('request-preparation-failed', safeErrorText(error.message), error, {
        toolSurface: error.toolSurface,
      });
    }
    throw error;
  }
  const known = { prepared, toolSurface: prepared };
  // A catalog missing its MCP part is not "the same request without MCP tools": the body inherits.
  if (snapshot.mcp.kind === 'not-snapshottable') {
    const detail = safeErrorText(snapshot.mcp.detail);
    return stop(
      'mcp-state-not-snapshottable',
      detail,
      new TurnBlockedError('mcp-state-not-snapshottable', detail),
      known,
    );
  }
  // Resource contents come from their servers, which a preview does not start: the body is not known.
  const unread = typeof prompt === 'object' ? (prompt.unreadResources ?? 0) : 0;
  if (unread > 0) {
    const detail = `the prompt mentions ${unread} MCP resource${unread === 1 ? '' : 's'}, read from its server only when the turn is sent`;
    return stop('mcp-resource-not-read', detail, new TurnBlockedError('mcp-resource-not-read', detail), known);
  }
  const measured = measureBody(prepared);
  const measuredKnown = { ...known, measured };
  const due = transformsDue(snapshot, measured);
  const transforms = [...snapshot.pending.runtimeTransforms, ...due.map((transform) => transform.words)];
  if (transforms.length > 0) {
    const detail = safeErrorText(transforms.join('; '));
    const error = new TurnBlockedError('runtime-transforms-before-send', detail);
    return stop('runtime-transforms-before-send', detail, error, {
      ...measuredKnown,
      // A host's own transforms are not the features' to perform: only theirs can be resolved.
      resolvable: snapshot.pending.runtimeTransforms.length === 0 && due.every((transform) => transform.resolvable),
    });
  }
  if (measured.headroom < 0) {
    const error = new ContextOverflowError({
      estimatedInputTokens: measured.estimates.total_conservative,
      inputBudgetTokens: measured.ceiling,
    });
    const detail = safeErrorText(
      `about ${measured.estimates.total_conservative} input tokens against an input budget of ${measured.ceiling}`,
    );
    return stop('input-budget-exceeded', detail, error, measuredKnown);
  }
  return { status: 'ready', input, prepared, measured };
}

/** Whether the stored history ends with a tool result: the loop stopped before sending it back. */
export function awaitsContinuation(snapshot: CwSnapshot): boolean {
  return snapshot.session.messages.at(-1)?.role === 'tool';
}

interface BlockedKnown {
  readonly input?: TurnInput | null;
  readonly prepared?: PreparedOutboundRequest;
  readonly toolSurface?: PreparedToolSurface | null;
  readonly measured?: MeasuredBody;
  readonly resolvable?: boolean;
}

function blocked(reason: UnavailableReason, detail: string | null, error: Error, known: BlockedKnown): BlockedTurn {
  return {
    status: 'blocked',
    input: known.input ?? null,
    reason,
    detail,
    error,
    prepared: known.prepared ?? null,
    toolSurface: known.toolSurface ?? null,
    measured: known.measured ?? null,
    resolvable: known.resolvable ?? false,
  };
}
