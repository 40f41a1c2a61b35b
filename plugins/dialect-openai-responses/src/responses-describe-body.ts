import type { BodyLayout, JsonValue, WireBody } from '@cw/core';

const REASONING_KEYS = ['reasoning', 'include'] as const;
const ATTACHMENT_TYPES = new Set(['input_image', 'input_file']);

/** Responses keeps the system region in `instructions` and the turn items in `input`. */
export function describeResponsesBody(body: WireBody): BodyLayout {
  const items = Array.isArray(body['input']) ? body['input'] : [];
  const toolResultItemIndexes: number[] = [];
  const attachmentParts: JsonValue[] = [];
  items.forEach((item, index) => {
    if (!isObject(item)) return;
    if (item['type'] === 'function_call_output') toolResultItemIndexes.push(index);
    const content = item['content'];
    if (!Array.isArray(content)) return;
    for (const part of content) {
      if (isObject(part) && typeof part['type'] === 'string' && ATTACHMENT_TYPES.has(part['type']))
        attachmentParts.push(part);
    }
  });
  return {
    systemValues: body['instructions'] === undefined ? [] : [body['instructions']],
    itemsKey: Array.isArray(body['input']) ? 'input' : null,
    systemItemIndexes: [],
    toolResultItemIndexes,
    attachmentParts,
    reasoningKeys: REASONING_KEYS,
  };
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
