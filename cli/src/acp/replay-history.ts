import type * as acp from '@agentclientprotocol/sdk';
import type { ConversationMessage } from '@cw/core/plugin';
import { acpToolCallFields, finishedStatus, toolCallView } from './tool-call-view.js';

/**
 * A saved session as the updates an editor would have seen: each user message, each reply's text
 * and tool calls, and each call's result (`session/load` replays them before it answers).
 */
export function replayHistory(
  messages: readonly ConversationMessage[],
  workspace: string,
  safe: (text: string) => string,
): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: message.content } });
        break;
      case 'assistant':
        if (message.content !== '')
          updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: message.content } });
        for (const call of message.tool_calls ?? []) {
          const view = toolCallView(call, '', workspace);
          updates.push({ sessionUpdate: 'tool_call', ...acpToolCallFields(call.id, view, 'pending', safe) });
        }
        break;
      case 'tool':
        updates.push({
          sessionUpdate: 'tool_call_update',
          toolCallId: message.tool_call_id,
          status: finishedStatus(message.status ?? 'ok'),
          content: [{ type: 'content', content: { type: 'text', text: message.content } }],
        });
        break;
      default:
        break;
    }
  }
  return updates;
}
