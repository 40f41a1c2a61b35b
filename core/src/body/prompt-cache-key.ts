import { canonicalJson } from '../canonical/canonical-json.js';
import { rememberedSha256 } from '../canonical/remembered-sha256.js';
import type { ConversationMessage } from '../prompt/conversation.js';
import { setPath } from './plan-reasoning.js';
import type { WireBody } from './wire-body.js';

/**
 * A prompt-cache key for a session: a hash of its name and its first outbound message, so every
 * request of one conversation carries the same key and two conversations almost never share one.
 * Preview and send derive it from the same messages, so it is part of the body both describe.
 */
export function promptCacheKey(sessionName: string, messages: readonly ConversationMessage[]): string {
  const first = messages[0];
  // Every step of a conversation hashes the same text: it is looked up, not hashed again.
  return `cw-${rememberedSha256(`${sessionName}\n${first === undefined ? '' : canonicalJson(first)}`).slice(0, 40)}`;
}

/** Writes the session's cache key at the row's declared key field, when the row declares one. */
export function placePromptCacheKey(body: WireBody, keyField: string | null, key: string): void {
  if (keyField !== null) setPath(body, keyField, key);
}
