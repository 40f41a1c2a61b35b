import type { ConversationMessage } from '../prompt/conversation.js';

// The session file is checked where it lies, without the copy a schema parse makes of the whole
// history (docs/performance.md). The rules are exactly conversationMessageSchema's; a property test
// holds the two to the same verdict and the same value.

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const TOOL_STATUSES = new Set(['ok', 'error', 'cancelled', 'refused', 'invalid', 'not-executed', 'unknown']);

/**
 * The messages of a parsed session file when it has the stored shape (`{ version: 1, messages }`,
 * and the optional `route` its last turn used), frozen in place as the schema's readonly output is;
 * null when it does not.
 */
export function sessionMessagesOf(raw: unknown): readonly ConversationMessage[] | null {
  if (!isRecord(raw) || !hasOnly(raw, FILE_KEYS) || raw['version'] !== 1) return null;
  if (!optional(raw['route'], isRouteLabel)) return null;
  const messages = raw['messages'];
  if (!Array.isArray(messages) || !messages.every(isMessage)) return null;
  for (const message of messages) freezeMessage(message as Record<string, unknown>);
  return Object.freeze(messages) as readonly ConversationMessage[];
}

const FILE_KEYS = new Set(['version', 'messages', 'route']);
const USER_KEYS = new Set(['role', 'content', 'images', 'summary_of', 'turn_context']);
const ASSISTANT_KEYS = new Set(['role', 'content', 'tool_calls', 'usage', 'cost_usd', 'replay', 'body_sha256']);
const TOOL_KEYS = new Set(['role', 'tool_call_id', 'name', 'content', 'images', 'status']);
const IMAGE_KEYS = new Set(['media_type', 'data']);
const CALL_KEYS = new Set(['id', 'name', 'arguments']);
const USAGE_KEYS = new Set(['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens']);
const REPLAY_KEYS = new Set(['dialect', 'items']);

function isMessage(value: unknown): boolean {
  if (!isRecord(value)) return false;
  switch (value['role']) {
    case 'user':
      return (
        hasOnly(value, USER_KEYS) &&
        typeof value['content'] === 'string' &&
        optional(value['images'], (images) => Array.isArray(images) && images.every(isImage)) &&
        optional(
          value['summary_of'],
          (count) => typeof count === 'number' && Number.isSafeInteger(count) && count > 0,
        ) &&
        optional(value['turn_context'], (text) => typeof text === 'string')
      );
    case 'assistant':
      return (
        hasOnly(value, ASSISTANT_KEYS) &&
        typeof value['content'] === 'string' &&
        optional(value['tool_calls'], (calls) => Array.isArray(calls) && calls.every(isToolCall)) &&
        optional(value['usage'], isUsage) &&
        optional(value['cost_usd'], (usd) => typeof usd === 'number' && Number.isFinite(usd) && usd >= 0) &&
        optional(value['replay'], isReplay) &&
        optional(value['body_sha256'], (hash) => typeof hash === 'string' && SHA256_HEX.test(hash))
      );
    case 'tool':
      return (
        hasOnly(value, TOOL_KEYS) &&
        typeof value['tool_call_id'] === 'string' &&
        typeof value['name'] === 'string' &&
        typeof value['content'] === 'string' &&
        optional(value['images'], (images) => Array.isArray(images) && images.every(isImage)) &&
        optional(value['status'], (status) => typeof status === 'string' && TOOL_STATUSES.has(status))
      );
    default:
      return false;
  }
}

function isImage(value: unknown): boolean {
  return (
    isRecord(value) &&
    hasOnly(value, IMAGE_KEYS) &&
    typeof value['media_type'] === 'string' &&
    IMAGE_TYPES.has(value['media_type']) &&
    typeof value['data'] === 'string' &&
    BASE64.test(value['data'])
  );
}

function isToolCall(value: unknown): boolean {
  return (
    isRecord(value) &&
    hasOnly(value, CALL_KEYS) &&
    typeof value['id'] === 'string' &&
    typeof value['name'] === 'string' &&
    typeof value['arguments'] === 'string'
  );
}

function isUsage(value: unknown): boolean {
  const count = (tokens: unknown): boolean => typeof tokens === 'number' && Number.isSafeInteger(tokens) && tokens >= 0;
  return (
    isRecord(value) &&
    hasOnly(value, USAGE_KEYS) &&
    count(value['input_tokens']) &&
    count(value['output_tokens']) &&
    optional(value['cache_read_tokens'], count) &&
    optional(value['cache_write_tokens'], count)
  );
}

function isReplay(value: unknown): boolean {
  // Replay items are any JSON, which a parsed file always is.
  const dialect = isRecord(value) ? value['dialect'] : undefined;
  return (
    isRecord(value) &&
    hasOnly(value, REPLAY_KEYS) &&
    typeof dialect === 'string' &&
    dialect.length >= 1 &&
    dialect.length <= 48 &&
    Array.isArray(value['items'])
  );
}

function isRouteLabel(value: unknown): boolean {
  return typeof value === 'string' && value.length >= 1 && value.length <= 64;
}

/** An optional field: absent, or present and valid. */
function optional(value: unknown, valid: (value: unknown) => boolean): boolean {
  return value === undefined || valid(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every own key is one the shape names, and every named key it holds is required by the checks. */
function hasOnly(value: Record<string, unknown>, keys: ReadonlySet<string>): boolean {
  for (const key of Object.keys(value)) if (!keys.has(key)) return false;
  return true;
}

/** Freezes what the schema's readonly output freezes: the message, its lists and their entries. */
function freezeMessage(message: Record<string, unknown>): void {
  for (const key of ['images', 'tool_calls'] as const) {
    const list = message[key];
    if (Array.isArray(list)) {
      for (const entry of list) Object.freeze(entry);
      Object.freeze(list);
    }
  }
  if (isRecord(message['usage'])) Object.freeze(message['usage']);
  if (isRecord(message['replay'])) {
    Object.freeze(message['replay']['items']);
    Object.freeze(message['replay']);
  }
  Object.freeze(message);
}
