import { relative, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as acp from '@agentclientprotocol/sdk';
import type { AskAnswer, AskedCall, CostTotal, LoopStop } from '@cw/core';
import { noticeText } from '../render/notice-text.js';
import type { AcpSession } from './acp-session.js';
import { answerOf, permissionOptions } from './permission-options.js';
import { acpToolCallFields, finishedStatus, toolCallView } from './tool-call-view.js';

// One `session/prompt`: the turn runs through the Agent API (docs/embedding.md) and each of its
// events becomes the `session/update` an editor shows (docs/editors.md). Approvals go to the editor
// as `session/request_permission`; `session/cancel` aborts the turn, which then stops `cancelled`.

type Core = typeof import('@cw/core');

/** How the prompt's turn reaches the editor. */
export interface PromptChannel {
  /** Sends one update of this session. */
  update(update: acp.SessionUpdate): Promise<void>;
  /** Asks the editor about a call. */
  requestPermission(request: Omit<acp.RequestPermissionRequest, 'sessionId'>): Promise<acp.RequestPermissionResponse>;
}

/** Runs one prompt on a session and answers with the reason it stopped. */
export async function runPrompt(
  core: Core,
  session: AcpSession,
  prompt: readonly acp.ContentBlock[],
  channel: PromptChannel,
): Promise<acp.StopReason> {
  const controller = new AbortController();
  session.running = controller;
  // Calls the editor has been shown, with the content they were shown with (an edit's diff).
  const shown = new Map<string, acp.ToolCallContent[]>();
  const safe = core.terminalSafe;
  const show = async (
    call: { id: string; name: string; arguments: string; change?: AskedCall['change'] },
    summary: string,
    status: acp.ToolCallStatus,
  ): Promise<void> => {
    const view = toolCallView(call, safe(summary), session.workspace);
    shown.set(call.id, view.content);
    await channel.update({ sessionUpdate: 'tool_call', ...acpToolCallFields(call.id, view, status, safe) });
  };
  // The session's answers live in the core's approval store (session.approvals); this only asks.
  const onApproval = async (call: AskedCall): Promise<AskAnswer> => {
    if (controller.signal.aborted) return 'no';
    await show(call, call.summary, 'pending');
    const view = toolCallView(call, safe(call.summary), session.workspace);
    try {
      return answerOf(
        await channel.requestPermission({
          toolCall: acpToolCallFields(call.id, view, 'pending', safe),
          options: permissionOptions(call),
        }),
      );
    } catch {
      // An editor that cannot answer has not allowed anything.
      return 'no';
    }
  };
  const run = session.agent.run(promptText(prompt, session.cwd), {
    overrides: { session: { kind: 'named', name: session.name }, route: session.route },
    approval: session.posture,
    approvals: session.approvals,
    mcpServers: session.mcpServers,
    scope: session.scope,
    signal: controller.signal,
    onApproval,
  });
  let lastUsage: { readonly input_tokens: number; readonly output_tokens: number } | null = null;
  try {
    for await (const event of run) {
      switch (event.type) {
        case 'step-finish':
          if (event.usage !== null) lastUsage = event.usage;
          break;
        case 'turn-finish': {
          // How much of the route's window the conversation takes now: the last request's input and output.
          const route = 'exact' in event.manifest.route ? event.manifest.route.exact : null;
          if (lastUsage !== null && route !== null && route.context_limit_tokens > 0)
            await channel.update({
              sessionUpdate: 'usage_update',
              used: lastUsage.input_tokens + lastUsage.output_tokens,
              size: route.context_limit_tokens,
              cost: sessionCost(event.session_cost),
            });
          break;
        }
        case 'text-delta':
          await channel.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } });
          break;
        case 'reasoning-delta':
          await channel.update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } });
          break;
        case 'notice':
          await channel.update({
            sessionUpdate: 'notice',
            severity: event.notice.kind === 'warning' ? 'warning' : 'info',
            title: safe(noticeText(event.notice, session.agent.registry.turn.notices)),
          });
          break;
        case 'tool-call':
          if (shown.has(event.call.id))
            await channel.update({
              sessionUpdate: 'tool_call_update',
              toolCallId: event.call.id,
              status: 'in_progress',
            });
          else await show(event.call, event.summary, 'in_progress');
          break;
        case 'tool-result': {
          const { record } = event;
          // A call refused before it ran was never shown: it is shown once, finished.
          if (!shown.has(record.call.id)) await show(record.call, record.summary, finishedStatus(record.status));
          // The result is what the model reads, shown as today's terminal shows the reply: the user's content.
          await channel.update({
            sessionUpdate: 'tool_call_update',
            toolCallId: record.call.id,
            status: finishedStatus(record.status),
            content: [
              ...(shown.get(record.call.id) ?? []),
              { type: 'content', content: { type: 'text', text: record.content } },
            ],
            rawOutput: { status: record.status, duration_ms: record.durationMs },
          });
          break;
        }
        default:
          break;
      }
    }
    const sent = await run.result;
    return stopReason(sent.stopped);
  } catch (error) {
    // A cancelled turn is no failure: cw keeps the session as it was (or with the steps that finished).
    if (controller.signal.aborted) return 'cancelled';
    // The editor went away mid-turn (an update could not be sent): the turn stops rather than run on unseen.
    controller.abort();
    await run.result.catch(() => undefined);
    throw error;
  } finally {
    if (session.running === controller) session.running = null;
  }
}

/** ACP's stop reason for why cw's loop stopped. */
export function stopReason(stopped: LoopStop): acp.StopReason {
  switch (stopped) {
    case 'answered':
    case 'tool-calls-returned':
      return 'end_turn';
    case 'step-limit':
      return 'max_turn_requests';
    case 'interrupted':
      return 'cancelled';
    default: {
      const never: never = stopped;
      return never;
    }
  }
}

/**
 * The prompt as cw takes it: text blocks as they are; a file the editor links becomes an `@path`
 * mention (docs/file-mentions.md), relative to the session's folder, else its URI as text.
 */
export function promptText(blocks: readonly acp.ContentBlock[], cwd: string): string {
  return blocks
    .map((block) => {
      if (block.type === 'text') return block.text;
      if (block.type !== 'resource_link') return '';
      const path = filePath(block.uri);
      if (path === undefined) return ` ${block.uri} `;
      const inside = relative(cwd, path);
      const mention = inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
      return /[\s"]/.test(mention) ? ` @"${mention}" ` : ` @${mention} `;
    })
    .join('');
}

function filePath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The session's cumulative cost as ACP carries it, in USD; null when no step of it could be priced.
 * Steps without a known cost are left out of the amount and counted in `_meta` (docs/editors.md).
 */
function sessionCost(total: CostTotal): acp.Cost | null {
  if (total.usd === 0 && total.steps_without_cost > 0) return null;
  return {
    amount: total.usd,
    currency: 'USD',
    ...(total.steps_without_cost === 0 ? {} : { _meta: { cw: { steps_without_cost: total.steps_without_cost } } }),
  };
}
