import type { BodyLayout, WireBody } from '@cw/core/plugin';
import { arrayAt, describeBodyLayout, hasType, reasoningLayout, type BodyLayoutSpec } from '@cw/plugin-kit';

const REASONING_KEYS = ['thinking', 'output_config'];
const ATTACHMENT_TYPES = ['image', 'document'];

/** Anthropic keeps the system region in `system` and tool results as blocks inside user turns. */
const ANTHROPIC_LAYOUT: BodyLayoutSpec = {
  itemsKey: 'messages',
  systemKey: 'system',
  isSystemItem: null,
  isToolResultItem: (item) => arrayAt(item, 'content').some((block) => hasType(block, ['tool_result'])),
  isAttachmentPart: (part) => hasType(part, ATTACHMENT_TYPES),
  toolsKey: 'tools',
  toolChoiceKey: 'tool_choice',
  toolChoiceNamePath: 'name',
  streamKey: 'stream',
  reasoning: reasoningLayout(REASONING_KEYS),
  cacheMarkerKey: 'cache_control',
};

/** Says where an Anthropic Messages body keeps each region and wire fact. */
export function describeAnthropicBody(body: WireBody): BodyLayout {
  return describeBodyLayout(body, ANTHROPIC_LAYOUT);
}
