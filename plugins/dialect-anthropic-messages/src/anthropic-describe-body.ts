import type { BodyLayout, JsonValue, WireBody } from '@cw/core';

const REASONING_KEYS = ['thinking', 'output_config'] as const;
const ATTACHMENT_TYPES = new Set(['image', 'document']);

/** Anthropic keeps the system region in `system` and tool results as blocks inside user turns. */
export function describeAnthropicBody(body: WireBody): BodyLayout {
  const items = Array.isArray(body['messages']) ? body['messages'] : [];
  const toolResultItemIndexes: number[] = [];
  const attachmentParts: JsonValue[] = [];
  items.forEach((item, index) => {
    const content = isObject(item) ? item['content'] : undefined;
    if (!Array.isArray(content)) return;
    if (content.some((block) => isObject(block) && block['type'] === 'tool_result')) toolResultItemIndexes.push(index);
    for (const block of content) {
      if (isObject(block) && typeof block['type'] === 'string' && ATTACHMENT_TYPES.has(block['type']))
        attachmentParts.push(block);
    }
  });
  return {
    systemValues: body['system'] === undefined ? [] : [body['system']],
    itemsKey: Array.isArray(body['messages']) ? 'messages' : null,
    systemItemIndexes: [],
    toolResultItemIndexes,
    attachmentParts,
    reasoningKeys: REASONING_KEYS,
  };
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
