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
import { checkRequest, gateTurn, transformsDue } from './turn/gate-turn.js';

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
   * Why the projected tool surface is not known either, when preparation failed after projection
   * and a feature says the tools depend on what is not known offline (MCP tools with no snapshot).
   */
  readonly toolsUnknown: { readonly reason: UnavailableReason; readonly detail: string | null } | null;
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
 * real turn meets them: pending state and the prompt, then route, projection and body, then what
 * the features say cannot be known offline (MCP tools and resources), transforms that would rewrite
 * the body (auto-compaction among them), and the input budget.
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
  let prepared: PreparedOutboundRequest;
  try {
    prepared = prepareOutboundRequest(snapshot, prompt, entrypoint);
  } catch (error) {
    if (error instanceof RoutePlanError)
      return stopped(input, 'route-plan-failed', safeErrorText(error.message), error);
    // Projection failed: there is no tool surface to describe, so all three sections fail together.
    if (error instanceof ToolChoiceError)
      return stopped(input, 'request-preparation-failed', safeErrorText(error.message), error);
    if (error instanceof RequestPreparationError) {
      return stopped(input, 'request-preparation-failed', safeErrorText(error.message), error, {
        toolSurface: error.toolSurface,
        toolsUnknown: error.toolSurface === null ? null : toolsUnknown(snapshot, prompt),
      });
    }
    throw error;
  }
  // What the request depends on that a preview cannot know (docs/architecture.md, "The turn's hooks").
  const unknown = checkRequest(snapshot, prompt);
  if (unknown !== null) {
    const error = new TurnBlockedError(unknown.reason, unknown.detail, unknown.remedy);
    // The route stays exact; the tool surface too, unless the reason's registration says it is unknown.
    const toolsToo = snapshot.registry.turn.reasons.mayStandIn(unknown.reason, 'tools');
    return stopped(input, unknown.reason, unknown.detail, error, { prepared, toolSurface: toolsToo ? null : prepared });
  }
  const measured = measureBody(prepared);
  // Written out rather than spread from a smaller object: a member added after a spread makes a
  // layout of its own, built again after every full collection (docs/performance.md).
  const measuredKnown = { prepared, toolSurface: prepared, measured };
  const due = transformsDue(snapshot, measured);
  const transforms = [...snapshot.pending.runtimeTransforms, ...due.map((transform) => transform.words)];
  if (transforms.length > 0) {
    const detail = safeErrorText(transforms.join('; '));
    const error = new TurnBlockedError('runtime-transforms-before-send', detail);
    return stopped(input, 'runtime-transforms-before-send', detail, error, {
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
    return stopped(input, 'input-budget-exceeded', detail, error, measuredKnown);
  }
  return { status: 'ready', input, prepared, measured };
}

/** Whether the stored history ends with a tool result: the loop stopped before sending it back. */
export function awaitsContinuation(snapshot: CwSnapshot): boolean {
  return snapshot.session.messages.at(-1)?.role === 'tool';
}

/** A feature's reason the tool surface is not known offline, if any. */
function toolsUnknown(snapshot: CwSnapshot, prompt: TurnPrompt | undefined): BlockedTurn['toolsUnknown'] {
  const unknown = checkRequest(snapshot, prompt);
  if (unknown === null || !snapshot.registry.turn.reasons.mayStandIn(unknown.reason, 'tools')) return null;
  return { reason: unknown.reason, detail: unknown.detail };
}

interface BlockedKnown {
  readonly input?: TurnInput | null;
  readonly prepared?: PreparedOutboundRequest;
  readonly toolSurface?: PreparedToolSurface | null;
  readonly measured?: MeasuredBody;
  readonly resolvable?: boolean;
  readonly toolsUnknown?: BlockedTurn['toolsUnknown'];
}

// A plain function rather than a closure per plan: a blocked turn is rare, a plan is not.
function stopped(
  input: TurnInput,
  reason: UnavailableReason,
  detail: string | null,
  error: Error,
  known: BlockedKnown = {},
): BlockedTurn {
  return blocked(reason, detail, error, { ...known, input });
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
    toolsUnknown: known.toolsUnknown ?? null,
  };
}
