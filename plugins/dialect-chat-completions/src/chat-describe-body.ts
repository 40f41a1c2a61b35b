import type { BodyLayout, WireBody } from '@cw/core/plugin';
import { describeBodyLayout, reasoningLayout, type BodyLayoutSpec } from '@cw/plugin-kit';

// Top-level keys that carry a reasoning control on Chat routes, in report order.
const REASONING_KEYS = [
  'reasoning_effort',
  'thinking',
  'think',
  'reasoning',
  'reasoning_split',
  'chat_template_kwargs',
];

/** Chat keeps its system region inline: every `role: "system"` item, wherever it sits. */
const CHAT_LAYOUT: BodyLayoutSpec = {
  itemsKey: 'messages',
  systemKey: null,
  isSystemItem: (item) => item['role'] === 'system',
  isToolResultItem: (item) => item['role'] === 'tool',
  isAttachmentPart: (part) => part['type'] === 'image_url' || 'image_url' in part || part['type'] === 'file',
  toolsKey: 'tools',
  toolChoiceKey: 'tool_choice',
  toolChoiceNamePath: 'function.name',
  streamKey: 'stream',
  reasoning: reasoningLayout(REASONING_KEYS),
};

/** Says where a Chat Completions body keeps each region and wire fact. */
export function describeChatBody(body: WireBody): BodyLayout {
  return describeBodyLayout(body, CHAT_LAYOUT);
}
