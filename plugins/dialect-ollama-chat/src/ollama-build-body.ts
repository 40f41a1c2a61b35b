import type { BuildContext, ConversationMessage, JsonValue, WireBody } from '@cw/core/plugin';
import { isJsonObject, setValueAt, stringAt } from '@cw/plugin-kit';

/**
 * Builds an Ollama `/api/chat` body in wire key order: model, messages, tools, stream, options.
 * Ollama has no tool choice: the body never carries one (a route's row turns other choices into
 * `auto` or drops the tools). The core writes `think` after this, from the row.
 */
export function buildOllamaBody(context: BuildContext): WireBody {
  const body: WireBody = { model: context.wireModel, messages: ollamaMessages(context) };
  if (context.tools.length > 0) {
    body['tools'] = context.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters as JsonValue },
    }));
  }
  // Ollama streams unless told otherwise: the blocking body says so explicitly.
  body['stream'] = context.entrypoint === 'streaming';
  const capField = context.row.output_cap.field;
  if (capField !== null) setValueAt(body, capField, context.outputCapTokens);
  // The context size is per request on this wire, and without it the server silently keeps only the
  // end of a long prompt (system prompt and tools first). cw plans the turn against the route's
  // window, so the server is told the same figure.
  setValueAt(body, 'options.num_ctx', context.row.context.window_tokens);
  return body;
}

function ollamaMessages(context: BuildContext): JsonValue[] {
  const items: JsonValue[] = [];
  if (context.system !== '') items.push({ role: 'system', content: context.system });
  for (const message of context.messages) items.push(ollamaMessage(message));
  return items;
}

function ollamaMessage(message: ConversationMessage): JsonValue {
  switch (message.role) {
    case 'user':
      // Ollama takes images as a list of base64 strings beside the text.
      return message.images === undefined || message.images.length === 0
        ? { role: 'user', content: message.content }
        : { role: 'user', content: message.content, images: message.images.map((image) => image.data) };
    case 'assistant': {
      const thinking = thinkingOf(message);
      const calls = message.tool_calls ?? [];
      return {
        role: 'assistant',
        content: message.content,
        ...(thinking === '' ? {} : { thinking }),
        ...(calls.length === 0
          ? {}
          : {
              tool_calls: calls.map((call) => ({
                id: call.id,
                function: { name: call.name, arguments: argumentsObject(call.arguments) },
              })),
            }),
      };
    }
    case 'tool':
      // Ollama takes images on any message, a tool result's included, as bare base64 strings.
      return message.images === undefined || message.images.length === 0
        ? { role: 'tool', content: message.content, tool_name: message.name, tool_call_id: message.tool_call_id }
        : {
            role: 'tool',
            content: message.content,
            images: message.images.map((image) => image.data),
            tool_name: message.name,
            tool_call_id: message.tool_call_id,
          };
    default: {
      const unreachable: never = message;
      return unreachable;
    }
  }
}

/** The thinking text the core left on an assistant message to send back within a tool loop. */
function thinkingOf(message: Extract<ConversationMessage, { role: 'assistant' }>): string {
  return (message.replay?.items ?? []).map((item) => stringAt(item, 'thinking')).join('');
}

// The server decodes arguments into an object and refuses a string; text the model produced that is
// not an object goes back as `{}` (the call was answered as invalid, and the result says why).
function argumentsObject(text: string): JsonValue {
  try {
    const parsed = JSON.parse(text) as JsonValue;
    return isJsonObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
