import type { BodyLayout, JsonValue, WireBody } from '@cw/core';

// Top-level keys that carry a reasoning control on Chat routes, in report order.
const REASONING_KEYS = [
  'reasoning_effort',
  'thinking',
  'think',
  'reasoning',
  'reasoning_split',
  'chat_template_kwargs',
] as const;

/** Chat keeps its system region inline: every `role: "system"` item, wherever it sits. */
export function describeChatBody(body: WireBody): BodyLayout {
  const items = Array.isArray(body['messages']) ? body['messages'] : [];
  const systemItemIndexes: number[] = [];
  const toolResultItemIndexes: number[] = [];
  const attachmentParts: JsonValue[] = [];
  items.forEach((item, index) => {
    if (!isObject(item)) return;
    if (item['role'] === 'system') systemItemIndexes.push(index);
    if (item['role'] === 'tool') toolResultItemIndexes.push(index);
    const content = item['content'];
    if (Array.isArray(content)) {
      for (const part of content) {
        if (isObject(part) && (part['type'] === 'image_url' || 'image_url' in part || part['type'] === 'file'))
          attachmentParts.push(part);
      }
    }
  });
  return {
    systemValues: systemItemIndexes.map((index) => items[index] as JsonValue),
    itemsKey: Array.isArray(body['messages']) ? 'messages' : null,
    systemItemIndexes,
    toolResultItemIndexes,
    attachmentParts,
    reasoningKeys: REASONING_KEYS,
  };
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
