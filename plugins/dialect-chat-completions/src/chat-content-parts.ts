import type { JsonValue, TurnEvent } from '@cw/core/plugin';
import { hasType, isJsonObject, stringAt } from '@cw/plugin-kit';

/**
 * The reply and reasoning text of a message's or a delta's `content`. It is a string on most servers,
 * but may be an array of typed parts: `text` parts carry reply text, and `thinking` parts (Mistral's
 * reasoning models) carry reasoning as a string or as an array of `text` parts. Other parts add no text.
 */
export function contentEvents(content: JsonValue | undefined): TurnEvent[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text-delta', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part): TurnEvent[] => {
    if (hasType(part, ['text'])) {
      const text = stringAt(part, 'text');
      return text === '' ? [] : [{ type: 'text-delta', text }];
    }
    if (hasType(part, ['thinking']) && isJsonObject(part)) {
      const text = thinkingText(part['thinking']);
      return text === '' ? [] : [{ type: 'reasoning-delta', text }];
    }
    return [];
  });
}

function thinkingText(thinking: JsonValue | undefined): string {
  if (typeof thinking === 'string') return thinking;
  if (!Array.isArray(thinking)) return '';
  return thinking
    .filter((part) => hasType(part, ['text']))
    .map((part) => stringAt(part, 'text'))
    .join('');
}
