import type { BuildContext, ConversationMessage, JsonValue, ReconciledToolChoice, WireBody } from '@cw/core/plugin';
import { setValueAt, stringAt } from '@cw/plugin-kit';
import { chatToolDeclarations } from './chat-tool-declarations.js';

/** Builds a Chat Completions body in wire key order: model, messages, tools, tool_choice, cap, stream. */
export function buildChatBody(context: BuildContext): WireBody {
  const body: WireBody = { model: context.wireModel, messages: chatMessages(context) };
  if (context.tools.length > 0) body['tools'] = chatToolDeclarations(context.tools);
  const toolChoice = chatToolChoice(context.toolChoice);
  if (toolChoice !== undefined) body['tool_choice'] = toolChoice;
  const capField = context.row.output_cap.field;
  if (capField) setValueAt(body, capField, context.outputCapTokens);
  // The blocking body never carries `stream`; streaming asks for the usage chunk too.
  if (context.entrypoint === 'streaming') {
    body['stream'] = true;
    body['stream_options'] = { include_usage: true };
  }
  return body;
}

function chatMessages(context: BuildContext): JsonValue[] {
  const items: JsonValue[] = [];
  if (context.system !== '') items.push({ role: 'system', content: context.system });
  // Chat tool messages carry text only: the images of a step's results follow all its tool messages
  // as one user message, each after a line naming the call it came from (docs/mcp.md).
  let pending: JsonValue[] = [];
  const flush = (): void => {
    if (pending.length > 0) items.push({ role: 'user', content: pending });
    pending = [];
  };
  for (const message of context.messages) {
    if (message.role !== 'tool') flush();
    items.push(chatMessage(message));
    if (message.role === 'tool' && message.images !== undefined && message.images.length > 0) {
      pending.push(
        { type: 'text', text: `Images from the result of tool call ${message.tool_call_id} (${message.name}):` },
        ...message.images.map((image) => ({
          type: 'image_url',
          image_url: { url: `data:${image.media_type};base64,${image.data}` },
        })),
      );
    }
  }
  flush();
  return items;
}

function chatMessage(message: ConversationMessage): JsonValue {
  switch (message.role) {
    case 'user':
      // Images a file mention attached go as image_url parts after the text, as data URLs.
      if (message.images === undefined || message.images.length === 0)
        return { role: 'user', content: message.content };
      return {
        role: 'user',
        content: [
          { type: 'text', text: message.content },
          ...message.images.map((image) => ({
            type: 'image_url',
            image_url: { url: `data:${image.media_type};base64,${image.data}` },
          })),
        ],
      };
    case 'assistant': {
      const calls = message.tool_calls ?? [];
      const reasoning = reasoningOf(message);
      if (calls.length === 0) return { role: 'assistant', content: message.content, ...reasoning };
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        ...reasoning,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    default: {
      const unreachable: never = message;
      return unreachable;
    }
  }
}

/**
 * The reasoning text the core left on an assistant message to send back, as `reasoning_content`
 * (DeepSeek's thinking mode wants it on the assistant messages of tool-calling turns); nothing without one.
 */
function reasoningOf(message: Extract<ConversationMessage, { role: 'assistant' }>): { reasoning_content?: string } {
  const text = (message.replay?.items ?? []).map((item) => stringAt(item, 'reasoning_content')).join('');
  return text === '' ? {} : { reasoning_content: text };
}

function chatToolChoice(choice: ReconciledToolChoice): JsonValue | undefined {
  if (choice === null) return undefined;
  if (typeof choice === 'string') return choice;
  return { type: 'function', function: { name: choice.name } };
}
