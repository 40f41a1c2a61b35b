import type { BodyLayout, JsonValue, ToolChoiceFacts, WireBody } from '@cw/core/plugin';
import { arrayAt, collectAttachmentParts, isJsonObject, objectAt, stringAt } from '@cw/plugin-kit';

// The thinking settings sit inside generationConfig, beside the output cap: only they are the control.
const THINKING = 'generationConfig.thinkingConfig';

/**
 * Says where a Gemini body keeps each region and wire fact: the system region in
 * `systemInstruction`, turns in `contents` (tool results are `functionResponse` parts of user
 * contents, attachments `inlineData` / `fileData` parts), declarations in `tools`, the choice in
 * `toolConfig.functionCallingConfig`. Streaming is asked for by URL, so the body has no stream field.
 */
export function describeGeminiBody(body: WireBody): BodyLayout {
  const contents = body['contents'];
  const items = Array.isArray(contents) ? contents : [];
  const system = body['systemInstruction'];
  return {
    systemValues: system === undefined ? [] : [system],
    itemsKey: Array.isArray(contents) ? 'contents' : null,
    systemItemIndexes: [],
    toolResultItemIndexes: items.flatMap((item, index) =>
      arrayAt(item, 'parts').some((part) => isJsonObject(part) && 'functionResponse' in part) ? [index] : [],
    ),
    attachmentParts: collectAttachmentParts(
      items.map((item) => ({ content: arrayAt(item, 'parts') })),
      (part) => 'inlineData' in part || 'fileData' in part,
    ),
    toolsKey: body['tools'] === undefined ? null : 'tools',
    toolChoice: toolChoiceFacts(body['toolConfig']),
    streamField: null,
    reasoning: {
      controlKeys: [THINKING],
      disclosureKeys: [],
      effortPaths: [`${THINKING}.thinkingLevel`],
      budgetPaths: [`${THINKING}.thinkingBudget`],
    },
  };
}

/** The calling mode as the kind, and the one function a forced choice allows as the name. */
function toolChoiceFacts(toolConfig: JsonValue | undefined): ToolChoiceFacts | null {
  const config = objectAt(toolConfig, 'functionCallingConfig');
  const mode = stringAt(config, 'mode');
  if (mode === '') return null;
  const allowed = arrayAt(config, 'allowedFunctionNames');
  const only = allowed.length === 1 && typeof allowed[0] === 'string' ? allowed[0] : null;
  return { kind: mode, name: only };
}
