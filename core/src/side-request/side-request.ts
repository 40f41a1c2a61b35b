import { turnHooksOf } from '../turn/core-turn-types.js';
import type { Entrypoint } from '../body/wire-body.js';
import { planTurn, type ReadyTurn, type TurnPlan } from '../plan-turn.js';
import type { AssistantReply } from '../reply/assemble-reply.js';
import { NOTHING_PENDING, type CwSnapshot } from '../snapshot/snapshot.js';
import type { SendSettings } from '../turn/turn-hooks.js';
import { sendPreparedRequest } from '../transport/send-prepared-request.js';
import { transportSettingsFor } from '../transport/transport-settings.js';

/** How a side request (a compaction summary, an auto-routing classification) is sent: the send's own settings. */
export type SideRequestOptions = SendSettings;

/**
 * The snapshot a side request is planned from: the same config, system prompt and feature state, on
 * `routeId` (default: the snapshot's route), with no history, no tools and nothing pending, marked as
 * a side request so only the gates that guard every request (the goal) apply and nothing compacts
 * it. It goes through the same seam and client as any turn.
 */
export function sideSnapshot(snapshot: CwSnapshot, routeId?: string): CwSnapshot {
  const { model: _model, ...config } = snapshot.config;
  return {
    ...snapshot,
    config: routeId === undefined ? snapshot.config : { ...config, route: routeId },
    purpose: 'side',
    session: { name: snapshot.session.name, key: snapshot.session.key, messages: [] },
    catalog: [],
    mcp: { kind: 'disabled' },
    pending: NOTHING_PENDING,
  };
}

/** Plans a side request: one user message, as typed, on the side snapshot. */
export function planSideRequest(side: CwSnapshot, prompt: string, entrypoint: Entrypoint): TurnPlan {
  return planTurn(side, prompt, entrypoint);
}

/**
 * Sends a planned side request through the transport client every turn uses; `afterRequest` then
 * accounts for it as for any request (the goal adds its tokens). Returns the reply and the snapshot
 * as the features left it, whose state the next request meets.
 */
export async function sendSideRequest(
  side: CwSnapshot,
  plan: ReadyTurn,
  options: SideRequestOptions,
): Promise<{ reply: AssistantReply; snapshot: CwSnapshot }> {
  const { prepared } = plan;
  const dialect = side.registry.dialect(prepared.dialect);
  if (!dialect) throw new Error(`dialect ${prepared.dialect} disappeared after planning`);
  const settings = transportSettingsFor(
    side.config,
    prepared.route.row.route_id,
    options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries },
  );
  const onRetry = options.onRetry;
  const { reply } = await sendPreparedRequest(prepared, dialect, {
    env: options.env,
    settings,
    scrub: [prepared.userMessage?.content].filter((text): text is string => text !== undefined),
    ...(options.signal ? { signal: options.signal } : {}),
    // A side request's own text is not the turn's reply: only its retries are told.
    ...(onRetry ? { report: (event) => (event.type === 'retry' ? onRetry(event.retry) : undefined) } : {}),
  });
  const after = await turnHooksOf(side.registry).afterRequest.promise(side, {
    home: options.home,
    snapshot: side,
    plan,
    reply,
    side: true,
  });
  return { reply, snapshot: after };
}
