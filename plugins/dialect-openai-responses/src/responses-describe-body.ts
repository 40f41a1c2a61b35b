import type { BodyLayout, WireBody } from '@cw/core/plugin';
import { describeBodyLayout, hasType, reasoningLayout, type BodyLayoutSpec } from '@cw/plugin-kit';

const REASONING_KEYS = ['reasoning', 'include'];
// `include` only asks for reasoning output to be returned; on its own it does not make the model reason.
const DISCLOSURE_KEYS = ['include'];
const ATTACHMENT_TYPES = ['input_image', 'input_file'];

/** Responses keeps the system region in `instructions` and the turn items in `input`. */
const RESPONSES_LAYOUT: BodyLayoutSpec = {
  itemsKey: 'input',
  systemKey: 'instructions',
  isSystemItem: null,
  isToolResultItem: (item) => item['type'] === 'function_call_output',
  isAttachmentPart: (part) => hasType(part, ATTACHMENT_TYPES),
  toolsKey: 'tools',
  toolChoiceKey: 'tool_choice',
  toolChoiceNamePath: 'name',
  streamKey: 'stream',
  reasoning: reasoningLayout(REASONING_KEYS, DISCLOSURE_KEYS),
};

/** Says where an OpenAI Responses body keeps each region and wire fact. */
export function describeResponsesBody(body: WireBody): BodyLayout {
  return describeBodyLayout(body, RESPONSES_LAYOUT);
}
