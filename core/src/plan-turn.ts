import type { Entrypoint } from './body/wire-body.js';
import type { UnavailableReason } from './manifest/unavailable-reason.js';
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
import { ToolChoiceError } from './tools/project-tools.js';

/** A turn that may go out exactly as prepared. */
export interface ReadyTurn {
  readonly status: 'ready';
  readonly prepared: PreparedOutboundRequest;
  readonly measured: MeasuredBody;
}

/**
 * A turn that cannot go out as it stands. What was decided before the blocking stage stays exact:
 * a prepared request when the body was built, a tool surface when projection ran.
 */
export interface BlockedTurn {
  readonly status: 'blocked';
  readonly reason: UnavailableReason;
  /** Already redacted; null when the reason says it all. */
  readonly detail: string | null;
  /** The typed error send rethrows. */
  readonly error: Error;
  readonly prepared: PreparedOutboundRequest | null;
  readonly toolSurface: PreparedToolSurface | null;
  /** Set when the body was built and measured. */
  readonly measured: MeasuredBody | null;
}

/** What the core decided about the next turn: preview renders it, send acts on it. */
export type TurnPlan = ReadyTurn | BlockedTurn;

/**
 * Plans the next turn once, with every reason a turn can be stopped in one place and in the order a
 * real turn meets them: pending state and the prompt, then route, projection and body, then MCP
 * tools that cannot be known offline, transforms that would rewrite the body, and the input budget.
 */
export function planTurn(snapshot: CwSnapshot, prompt: string | undefined, entrypoint: Entrypoint): TurnPlan {
  const early = blockedBeforeRoute(snapshot, prompt);
  if (early !== null || prompt === undefined) {
    const reason = early?.reason ?? 'no-hypothetical-prompt-supplied';
    const detail = early?.detail ?? null;
    return blocked(reason, detail, new TurnBlockedError(reason, detail));
  }

  let prepared: PreparedOutboundRequest;
  try {
    prepared = prepareOutboundRequest(snapshot, prompt, entrypoint);
  } catch (error) {
    if (error instanceof RoutePlanError) return blocked('route-plan-failed', safeErrorText(error.message), error);
    // Projection failed: there is no tool surface to describe, so all three sections fail together.
    if (error instanceof ToolChoiceError)
      return blocked('request-preparation-failed', safeErrorText(error.message), error);
    if (error instanceof RequestPreparationError) {
      return blocked('request-preparation-failed', safeErrorText(error.message), error, {
        toolSurface: error.toolSurface,
      });
    }
    throw error;
  }
  const known = { prepared, toolSurface: prepared };
  // A catalog missing its MCP part is not "the same request without MCP tools": the body inherits.
  if (snapshot.mcp.kind === 'not-snapshottable') {
    const detail = safeErrorText(snapshot.mcp.detail);
    return blocked(
      'mcp-state-not-snapshottable',
      detail,
      new TurnBlockedError('mcp-state-not-snapshottable', detail),
      known,
    );
  }
  const measured = measureBody(prepared);
  const measuredKnown = { ...known, measured };
  const transforms = snapshot.pending.runtimeTransforms;
  if (transforms.length > 0) {
    const detail = safeErrorText(transforms.join('; '));
    const error = new TurnBlockedError('runtime-transforms-before-send', detail);
    return blocked('runtime-transforms-before-send', detail, error, measuredKnown);
  }
  if (measured.headroom < 0) {
    const error = new ContextOverflowError({
      estimatedInputTokens: measured.estimates.total_conservative,
      inputBudgetTokens: measured.ceiling,
    });
    const detail = safeErrorText(
      `about ${measured.estimates.total_conservative} input tokens against an input budget of ${measured.ceiling}`,
    );
    return blocked('input-budget-exceeded', detail, error, measuredKnown);
  }
  return { status: 'ready', prepared, measured };
}

function blocked(
  reason: UnavailableReason,
  detail: string | null,
  error: Error,
  known: { prepared?: PreparedOutboundRequest; toolSurface?: PreparedToolSurface | null; measured?: MeasuredBody } = {},
): BlockedTurn {
  return {
    status: 'blocked',
    reason,
    detail,
    error,
    prepared: known.prepared ?? null,
    toolSurface: known.toolSurface ?? null,
    measured: known.measured ?? null,
  };
}

/** The first thing that stops a real turn before route planning, in the order a real submit meets them. */
function blockedBeforeRoute(
  snapshot: CwSnapshot,
  prompt: string | undefined,
): { reason: UnavailableReason; detail: string | null } | null {
  const pending = snapshot.pending;
  if (pending.goal === 'not-snapshottable') return { reason: 'goal-state-not-snapshottable', detail: null };
  if (pending.goal === 'budget-exhausted') return { reason: 'goal-token-budget-exhausted', detail: null };
  if (prompt === undefined) {
    return {
      reason: pending.autoRouting ? 'auto-route-unresolved-until-next-prompt' : 'no-hypothetical-prompt-supplied',
      detail: null,
    };
  }
  // Decided before hooks and prompt resolution: the classifier would need the resolved text, and preview never calls it.
  if (pending.autoRouting) return { reason: 'auto-route-classification-not-executed', detail: null };
  if (pending.messageSubmitHooks > 0) return { reason: 'message-submit-hooks-not-executed', detail: null };
  if (pending.promptResolutionError !== null) {
    return { reason: 'prompt-resolution-failed', detail: safeErrorText(pending.promptResolutionError) };
  }
  return null;
}
