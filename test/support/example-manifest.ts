import type { RequestManifest } from '../../core/src/index.js';
import { unavailable, type UnavailableReason } from '../../core/src/plan/unavailable-reason.js';

/** A manifest whose route, tools and body are all unavailable for `reason`: the smallest valid one. */
export function unavailableManifest(
  reason: UnavailableReason = 'no-hypothetical-prompt-supplied',
  detail: string | null = null,
  session: Partial<RequestManifest['session']> = {},
): RequestManifest {
  const section = unavailable(reason, detail) as RequestManifest['body'];
  return {
    schema_version: 1,
    session: {
      agent_role: 'primary',
      lane_kind: 'cli-single-turn',
      session_name: 'default',
      stored_message_count: 0,
      requested_route: 'deepseek',
      requested_model: 'route-default',
      routing_mode: 'fixed-route',
      requested_reasoning: 'route-default',
      hypothetical_prompt_supplied: reason !== 'no-hypothetical-prompt-supplied',
      mode: 'agent',
      approval_mode: 'ask',
      sandbox: 'unavailable',
      sandbox_mode: 'on',
      sandbox_network: 'off',
      environment: null,
      allowed_tool_gate_count: null,
      disallowed_tool_gate_count: null,
      message_submit_hook_count: 0,
      pending_skill: null,
      goal_state: 'none',
      base_prompt: { origin: 'bundled with this cw build', bytes: 590, sha256: 'c'.repeat(64) },
      ...session,
    },
    route: section as RequestManifest['route'],
    tools: section as RequestManifest['tools'],
    body: section,
  };
}
