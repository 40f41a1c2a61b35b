import { canonicalJson } from '../canonical/canonical-json.js';
import { isDeepFrozen } from '../canonical/deep-frozen.js';
import { sha256Hex } from '../canonical/sha256.js';
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
  // A stored first message is frozen all the way down and cannot change: its key is worked out once.
  const frozen = first !== undefined && isDeepFrozen(first);
  const known = frozen ? frozenKeys.get(first)?.get(sessionName) : undefined;
  if (known !== undefined) return known;
  const key = `cw-${sha256Hex(`${sessionName}\n${first === undefined ? '' : canonicalJson(first)}`).slice(0, 40)}`;
  if (frozen) {
    const bySession = frozenKeys.get(first) ?? new Map<string, string>();
    if (bySession.size >= KEYS_PER_MESSAGE) bySession.clear();
    bySession.set(sessionName, key);
    frozenKeys.set(first, bySession);
  }
  return key;
}

const KEYS_PER_MESSAGE = 4;
const frozenKeys = new WeakMap<object, Map<string, string>>();

/** Writes the session's cache key at the row's declared key field, when the row declares one. */
export function placePromptCacheKey(body: WireBody, keyField: string | null, key: string): void {
  if (keyField !== null) setPath(body, keyField, key);
}
