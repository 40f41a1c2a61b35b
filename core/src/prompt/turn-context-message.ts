import { keepLayout } from '../kept-layouts.js';
import type { ConversationMessage } from './conversation.js';

/**
 * What became of the turn context on one request: `sent` leading the new user message, `unchanged`
 * (the last block the session stored says the same, so it is not repeated), `continuation` (no new
 * user message), `side-request`, or `off` (config turned it off, or no working folder was read).
 */
export type TurnContextStatus = (typeof TURN_CONTEXT_STATUSES)[number];

/** Every turn-context status, in the manifest schema's order. */
export const TURN_CONTEXT_STATUSES = ['sent', 'unchanged', 'continuation', 'side-request', 'off'] as const;

/** The turn context of one request: its status and the block of this folder and day, null when off. */
export interface TurnContextPlacement {
  readonly status: TurnContextStatus;
  readonly block: string | null;
}

type UserMessage = Extract<ConversationMessage, { role: 'user' }>;

/**
 * Decides whether the new user message carries the turn-context block: only a person's turn with a
 * new message, and only when the block differs from the last one the conversation stored, as a
 * stored block already tells the model where it is (docs/project-context.md).
 */
export function placeTurnContext(
  block: string | undefined,
  purpose: 'turn' | 'side' | undefined,
  stored: readonly ConversationMessage[],
  newMessage: boolean,
): TurnContextPlacement {
  if (block === undefined) return { status: 'off', block: null };
  if (purpose === 'side') return { status: 'side-request', block };
  if (!newMessage) return { status: 'continuation', block };
  return { status: lastTurnContext(stored) === block ? 'unchanged' : 'sent', block };
}

// One placement lives as long as the module (kept-layouts.ts): a function called once a turn has no
// feedback for its first hundred or so calls, and builds its literals member by member until then.
keepLayout(placeTurnContext(undefined, undefined, [], false));

/** The last turn-context block stored with a user message, or null when none was. */
export function lastTurnContext(messages: readonly ConversationMessage[]): string | null {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'user' && message.turn_context !== undefined) return message.turn_context;
  }
  return null;
}

/** The user message with the block it carries, as the session stores it. */
export function withTurnContext(message: UserMessage, placement: TurnContextPlacement): UserMessage {
  return placement.status === 'sent' && placement.block !== null
    ? { ...message, turn_context: placement.block }
    : message;
}

/**
 * The conversation as a dialect reads it: a stored turn context goes in front of its message's text,
 * the same bytes on every request that replays it, so the history prefix stays byte-stable.
 */
export function inlineTurnContexts(messages: readonly ConversationMessage[]): readonly ConversationMessage[] {
  if (!messages.some((message) => message.role === 'user' && message.turn_context !== undefined)) return messages;
  return messages.map((message) => {
    if (message.role !== 'user' || message.turn_context === undefined) return message;
    const { turn_context, ...rest } = message;
    return { ...rest, content: turn_context + rest.content };
  });
}
