import type { Entrypoint } from '../body/wire-body.js';
import { recordGoalUsage } from '../features/goal/record-goal-usage.js';
import type { GoalGate } from '../features/goal/goal-gate.js';
import { planTurn, type ReadyTurn, type TurnPlan } from '../plan-turn.js';
import type { AssistantReply } from '../reply/assemble-reply.js';
import { NOTHING_PENDING, type CwSnapshot } from '../snapshot/snapshot.js';
import type { RetryNotice } from '../transport/send-prepared-request.js';
import { sendPreparedRequest } from '../transport/send-prepared-request.js';
import { transportSettingsFor } from '../transport/transport-settings.js';

/** How a side request (a compaction summary, an auto-routing classification) is sent. */
export interface SideRequestOptions {
  readonly home: string;
  readonly entrypoint: Entrypoint;
  readonly env: NodeJS.ProcessEnv;
  readonly maxRetries?: number;
  readonly signal?: AbortSignal;
  readonly onRetry?: (notice: RetryNotice) => void;
}

/**
 * The snapshot a side request is planned from: the same config, system prompt and goal gate, on
 * `routeId` (default: the snapshot's route), with no history, no tools and nothing pending, and
 * never compacting itself. It goes through the same seam and client as any turn.
 */
export function sideSnapshot(snapshot: CwSnapshot, routeId?: string): CwSnapshot {
  const { model: _model, ...config } = snapshot.config;
  return {
    ...snapshot,
    config: {
      ...(routeId === undefined ? snapshot.config : { ...config, route: routeId }),
      compaction: { ...snapshot.config.compaction, enabled: false },
    },
    session: { name: snapshot.session.name, key: snapshot.session.key, messages: [] },
    catalog: [],
    mcp: { kind: 'disabled' },
    pending: { ...NOTHING_PENDING, goal: snapshot.pending.goal },
    pendingSkill: null,
  };
}

/** Plans a side request: one user message, as typed, on the side snapshot. */
export function planSideRequest(side: CwSnapshot, prompt: string, entrypoint: Entrypoint): TurnPlan {
  return planTurn(side, prompt, entrypoint);
}

/**
 * Sends a planned side request through the transport client every turn uses, and adds its tokens to
 * the session's goal. Returns the reply and the goal gate the next request meets.
 */
export async function sendSideRequest(
  side: CwSnapshot,
  plan: ReadyTurn,
  options: SideRequestOptions,
): Promise<{ reply: AssistantReply; goal: GoalGate }> {
  const { prepared } = plan;
  const dialect = side.registry.dialect(prepared.dialect);
  if (!dialect) throw new Error(`dialect ${prepared.dialect} disappeared after planning`);
  const settings = transportSettingsFor(
    side.config,
    prepared.route.row.route_id,
    options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries },
  );
  const { reply } = await sendPreparedRequest(prepared, dialect, {
    env: options.env,
    settings,
    scrub: [prepared.userMessage?.content].filter((text): text is string => text !== undefined),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  });
  const goal = await recordGoalUsage(options.home, side.session.key, plan, reply);
  return { reply, goal };
}
