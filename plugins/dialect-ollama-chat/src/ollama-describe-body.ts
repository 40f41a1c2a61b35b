import type { BodyLayout, WireBody } from '@cw/core/plugin';
import { describeBodyLayout, type BodyLayoutSpec } from '@cw/plugin-kit';

/**
 * Ollama keeps its system region inline as `role: "system"` messages, tool results as `role: "tool"`
 * messages, images as bare base64 strings (never objects, so no attachment parts are found inside
 * `content`, which is a string), and thinking in one top-level `think`: a boolean, or a level.
 */
const OLLAMA_LAYOUT: BodyLayoutSpec = {
  itemsKey: 'messages',
  systemKey: null,
  isSystemItem: (item) => item['role'] === 'system',
  isToolResultItem: (item) => item['role'] === 'tool',
  isAttachmentPart: () => false,
  toolsKey: 'tools',
  // The wire has no tool choice; the key is looked for so a body that carried one would say so.
  toolChoiceKey: 'tool_choice',
  toolChoiceNamePath: 'function.name',
  streamKey: 'stream',
  reasoning: { controlKeys: ['think'], disclosureKeys: [], effortPaths: ['think'], budgetPaths: [] },
};

/** Says where an Ollama /api/chat body keeps each region and wire fact. */
export function describeOllamaBody(body: WireBody): BodyLayout {
  return describeBodyLayout(body, OLLAMA_LAYOUT);
}
