import type { PromptLayer } from '../context/prompt-layer.js';
import { replaceOutboundSecrets } from '../redaction/outbound-secrets.js';
import type { ConversationMessage } from './conversation.js';

/** How many secrets were replaced in the text a request carries, by where they were; never the secrets. */
export interface OutboundRedactionCounts {
  /** False when config `redact_outbound` is false: the text went as stored. */
  readonly enabled: boolean;
  readonly userText: number;
  readonly toolResults: number;
  /** In the system prompt's layers (AGENTS.md); cw's own base prompt carries none. */
  readonly systemPrompt: number;
}

/**
 * Replaces secret-shaped text in the user messages and tool results a request carries. The stored
 * session keeps what was typed and what the tools returned; only the outbound copy changes, the same
 * way for preview and send, so the manifest describes exactly what goes out.
 */
export function redactOutboundMessages(
  messages: readonly ConversationMessage[],
  enabled: boolean,
): { messages: readonly ConversationMessage[]; counts: Omit<OutboundRedactionCounts, 'systemPrompt'> } {
  if (!enabled) return { messages, counts: { enabled, userText: 0, toolResults: 0 } };
  let userText = 0;
  let toolResults = 0;
  const redacted = messages.map((message): ConversationMessage => {
    if (message.role === 'assistant') return message;
    const { redacted: outbound, count } = redactMessage(message);
    if (message.role === 'user') userText += count;
    else toolResults += count;
    return outbound;
  });
  return { messages: redacted, counts: { enabled, userText, toolResults } };
}

// A frozen message (a stored session's, check-session-file.ts) cannot change, so its outbound copy is
// worked out once per process: an agent loop sends the same history again on every step, and scanning
// it for secrets was a fifth of a preview's time (docs/performance.md).
const redactedMessages = new WeakMap<ConversationMessage, RedactedMessage>();

interface RedactedMessage {
  readonly redacted: ConversationMessage;
  readonly count: number;
}

function redactMessage(message: Exclude<ConversationMessage, { role: 'assistant' }>): RedactedMessage {
  const known = redactedMessages.get(message);
  if (known !== undefined) return known;
  const { text, count } = replaceOutboundSecrets(message.content);
  if (!Object.isFrozen(message)) return { redacted: count === 0 ? message : { ...message, content: text }, count };
  // Kept and handed out again, so frozen like the message it stands for.
  const result: RedactedMessage = {
    redacted: count === 0 ? message : Object.freeze({ ...message, content: text }),
    count,
  };
  redactedMessages.set(message, result);
  return result;
}

// Layers are read once per snapshot and sent again on every step of a loop: worked out once each.
const redactedLayers = new WeakMap<PromptLayer, { readonly layer: PromptLayer; readonly count: number }>();

/**
 * Replaces secret-shaped text in the system prompt's layers the way it is replaced in messages: an
 * AGENTS.md is text the workspace (and so the model) may have written (docs/security.md, "Secrets in
 * what goes to a model").
 */
export function redactOutboundLayers(
  layers: readonly PromptLayer[],
  enabled: boolean,
): { layers: readonly PromptLayer[]; count: number } {
  if (!enabled) return { layers, count: 0 };
  let total = 0;
  const redacted = layers.map((layer) => {
    let known = redactedLayers.get(layer);
    if (known === undefined) {
      const { text, count } = replaceOutboundSecrets(layer.text);
      known = { layer: count === 0 ? layer : { ...layer, text }, count };
      redactedLayers.set(layer, known);
    }
    total += known.count;
    return known.layer;
  });
  return { layers: redacted, count: total };
}
