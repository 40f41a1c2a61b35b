import type { ConversationMessage } from './conversation.js';

/** When stored reasoning state goes back to the provider (the route row's `reasoning.replay`). */
export type ReplayPolicy = 'never' | 'tool-loop' | 'always';

/**
 * Keeps the reasoning state each assistant message carries only where it may be sent again: to the
 * dialect that produced it (another dialect could not read it), and under the route's policy —
 * `tool-loop` keeps it on the messages since the last user message, the steps of the turn in flight.
 */
export function selectReplay(
  messages: readonly ConversationMessage[],
  dialect: string,
  policy: ReplayPolicy,
): ConversationMessage[] {
  let lastUser = -1;
  messages.forEach((message, index) => {
    if (message.role === 'user') lastUser = index;
  });
  return messages.map((message, index) => {
    if (message.role !== 'assistant' || message.replay === undefined) return message;
    const keep =
      message.replay.dialect === dialect && (policy === 'always' || (policy === 'tool-loop' && index > lastUser));
    if (keep) return message;
    const { replay: _dropped, ...rest } = message;
    return rest;
  });
}
