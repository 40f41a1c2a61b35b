import { replaceOutboundSecrets } from '../redaction/outbound-secrets.js';
import type { ConversationMessage } from './conversation.js';

/** How many secrets were replaced in the text a request carries, by where they were; never the secrets. */
export interface OutboundRedactionCounts {
  /** False when config `redact_outbound` is false: the text went as stored. */
  readonly enabled: boolean;
  readonly userText: number;
  readonly toolResults: number;
}

/**
 * Replaces secret-shaped text in the user messages and tool results a request carries. The stored
 * session keeps what was typed and what the tools returned; only the outbound copy changes, the same
 * way for preview and send, so the manifest describes exactly what goes out.
 */
export function redactOutboundMessages(
  messages: readonly ConversationMessage[],
  enabled: boolean,
): { messages: readonly ConversationMessage[]; counts: OutboundRedactionCounts } {
  if (!enabled) return { messages, counts: { enabled, userText: 0, toolResults: 0 } };
  let userText = 0;
  let toolResults = 0;
  const redacted = messages.map((message): ConversationMessage => {
    if (message.role === 'assistant') return message;
    const { text, count } = replaceOutboundSecrets(message.content);
    if (count === 0) return message;
    if (message.role === 'user') userText += count;
    else toolResults += count;
    return { ...message, content: text };
  });
  return { messages: redacted, counts: { enabled, userText, toolResults } };
}
