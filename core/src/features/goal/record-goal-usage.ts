import type { PreparedOutboundRequest } from '../../prepare-outbound-request.js';
import type { MeasuredBody } from '../../plan/measure-body.js';
import type { AssistantReply } from '../../reply/assemble-reply.js';
import { gateOf, type GoalGate } from './goal-gate.js';
import { addGoalUsage, GoalStateError } from './goal-store.js';

/**
 * The tokens one completed request cost: what the provider reported (input plus output), or, when
 * it reported nothing, cw's conservative estimate of the body plus the reply's bytes over four, so a
 * provider that reports no usage cannot spend a budget for free.
 */
export function requestTokens(
  plan: { readonly prepared: PreparedOutboundRequest; readonly measured: MeasuredBody | null },
  reply: AssistantReply,
): number {
  if (reply.usage !== null) return reply.usage.input_tokens + reply.usage.output_tokens;
  const replyBytes = Buffer.byteLength(
    reply.text + reply.toolCalls.map((call) => call.name + call.arguments).join(''),
    'utf8',
  );
  const input = plan.measured?.estimates.total_conservative ?? Math.ceil(plan.prepared.canonical.wireBytes / 4);
  return input + Math.ceil(replyBytes / 4);
}

/**
 * Adds a completed request to the session's goal and returns the gate the next request meets. The
 * reply is already saved; a goal that cannot take the usage stops the send (fail closed).
 */
export async function recordGoalUsage(
  home: string,
  session: string,
  plan: { readonly prepared: PreparedOutboundRequest; readonly measured: MeasuredBody | null },
  reply: AssistantReply,
): Promise<GoalGate> {
  try {
    return gateOf(await addGoalUsage(home, session, requestTokens(plan, reply)));
  } catch (error) {
    const why = error instanceof GoalStateError ? error.message : 'it could not be written';
    throw new GoalStateError(`the reply was saved, but its tokens could not be added to the goal: ${why}`);
  }
}
