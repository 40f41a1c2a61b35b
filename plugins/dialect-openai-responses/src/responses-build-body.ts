import type { BuildContext, ConversationMessage, JsonValue, ReconciledToolChoice, WireBody } from '@cw/core/plugin';
import { hasType, setValueAt, stringAt } from '@cw/plugin-kit';

/** Builds an OpenAI Responses body in wire key order: model, instructions, input, tools, tool_choice, cap, stream, store. */
export function buildResponsesBody(context: BuildContext): WireBody {
  const body: WireBody = { model: context.wireModel };
  if (context.system !== '') body['instructions'] = context.system;
  body['input'] = context.messages.flatMap(responsesItems);
  if (context.tools.length > 0) {
    // Responses tools are flat: name and parameters sit beside `type`, not under `function`.
    body['tools'] = context.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters as JsonValue,
      strict: tool.strict,
    }));
    body['parallel_tool_calls'] = true;
  }
  const toolChoice = responsesToolChoice(context.toolChoice);
  if (toolChoice !== undefined) body['tool_choice'] = toolChoice;
  const capField = context.row.output_cap.field;
  if (capField) setValueAt(body, capField, context.outputCapTokens);
  // The blocking entry point also streams and folds the events: the two bodies are identical.
  body['stream'] = true;
  body['store'] = false;
  return body;
}

function responsesItems(message: ConversationMessage): JsonValue[] {
  switch (message.role) {
    case 'user':
      return [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: message.content },
            ...(message.images ?? []).map((image) => ({
              type: 'input_image',
              image_url: `data:${image.media_type};base64,${image.data}`,
            })),
          ],
        },
      ];
    case 'assistant': {
      const items: JsonValue[] = [];
      // Replayed as an input message with string content, the form the API documents for earlier
      // assistant turns; an output message would need the id and status of a stored response
      // (docs/wire-conformance.md).
      if (message.content !== '') items.push({ type: 'message', role: 'assistant', content: message.content });
      for (const call of message.tool_calls ?? []) {
        items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
      }
      // A reasoning item is refused without the output item that followed it: an empty reply sends neither.
      return items.length === 0 ? [] : [...replayItems(message), ...items];
    }
    case 'tool':
      // Images a result carries travel in the output itself: input_text, then input_image parts.
      return [
        {
          type: 'function_call_output',
          call_id: message.tool_call_id,
          output:
            message.images === undefined || message.images.length === 0
              ? message.content
              : [
                  { type: 'input_text', text: message.content },
                  ...message.images.map((image) => ({
                    type: 'input_image',
                    image_url: `data:${image.media_type};base64,${image.data}`,
                  })),
                ],
        },
      ];
    default: {
      const unreachable: never = message;
      return unreachable;
    }
  }
}

/**
 * The reasoning items the core left on an assistant message, unchanged, to go right before its
 * output items. The body sets `store: false`, so the API resolves no item by its id alone: a
 * reasoning item without encrypted_content would be refused as not found, and is left out.
 */
function replayItems(message: Extract<ConversationMessage, { role: 'assistant' }>): JsonValue[] {
  return (message.replay?.items ?? []).filter(
    (item) => !hasType(item, ['reasoning']) || stringAt(item, 'encrypted_content') !== '',
  );
}

function responsesToolChoice(choice: ReconciledToolChoice): JsonValue | undefined {
  if (choice === null) return undefined;
  if (typeof choice === 'string') return choice;
  return { type: 'function', name: choice.name };
}
