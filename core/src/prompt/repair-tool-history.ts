import type { ConversationMessage } from './conversation.js';

/** The result text cw stores for a tool call it handed back without running. */
export const NOT_EXECUTED_RESULT = 'Not executed: cw returned this tool call to the user without running it.';

/**
 * Makes the history well-formed for every dialect: each assistant tool call is answered by a tool
 * result before the conversation moves on, and no tool result stands without its call. Providers
 * reject a request otherwise, and cw send returns tool calls without running them, so a stored
 * session can end with calls that have no results. Pure and deterministic: preview and send agree.
 */
export function repairToolHistory(messages: readonly ConversationMessage[]): ConversationMessage[] {
  const repaired: ConversationMessage[] = [];
  let open: { id: string; name: string }[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      const index = open.findIndex((call) => call.id === message.tool_call_id);
      if (index === -1) continue;
      open.splice(index, 1);
      repaired.push(message);
      continue;
    }
    closeOpenCalls(repaired, open);
    open = [];
    repaired.push(message);
    if (message.role === 'assistant')
      open = (message.tool_calls ?? []).map((call) => ({ id: call.id, name: call.name }));
  }
  closeOpenCalls(repaired, open);
  return repaired;
}

// A plain function rather than a closure per history: a preview creates as few functions as it can
// (docs/performance.md).
function closeOpenCalls(repaired: ConversationMessage[], open: readonly { id: string; name: string }[]): void {
  for (const call of open)
    repaired.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: NOT_EXECUTED_RESULT });
}
