import type { BuildContext, ConversationMessage, JsonValue, ReconciledToolChoice, WireBody } from '@cw/core/plugin';
import { isJsonObject, setValueAt } from '@cw/plugin-kit';
import { markCacheBreakpoints, type Block, type Turn } from './anthropic-cache-breakpoints.js';

/** Builds an Anthropic Messages body in wire key order: model, max_tokens, system, messages, tools, tool_choice, stream. */
export function buildAnthropicBody(context: BuildContext): WireBody {
  const body: WireBody = { model: context.wireModel };
  // Anthropic requires max_tokens; the row names the field, the dialect guarantees it is present.
  setValueAt(body, context.row.output_cap.field ?? 'max_tokens', context.outputCapTokens);
  const tools: Block[] = context.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters as JsonValue,
  }));
  const turns = anthropicTurns(context.messages);
  const marks = markCacheBreakpoints(context.row.prompt_cache ?? null, tools, context.system, turns);
  if (context.system !== '') body['system'] = marks.system;
  body['messages'] = turns.map((turn, index) => collapse(turn, marks.markedTurns.has(index)));
  if (tools.length > 0) body['tools'] = tools;
  const toolChoice = anthropicToolChoice(context.toolChoice);
  if (toolChoice !== undefined) body['tool_choice'] = toolChoice;
  // Messages mirrors the caller: the blocking entry point sends stream:false explicitly.
  body['stream'] = context.entrypoint === 'streaming';
  return body;
}

/** Anthropic wants strictly alternating roles, and tool results travel as blocks of a user turn. */
function anthropicTurns(messages: readonly ConversationMessage[]): Turn[] {
  const turns: Turn[] = [];
  const push = (role: Turn['role'], blocks: Block[]): void => {
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        push('user', [
          { type: 'text', text: message.content },
          ...(message.images ?? []).map((image) => ({
            type: 'image',
            source: { type: 'base64', media_type: image.media_type, data: image.data },
          })),
        ]);
        break;
      case 'assistant': {
        const blocks: Block[] = message.content === '' ? [] : [{ type: 'text', text: message.content }];
        for (const call of message.tool_calls ?? []) {
          blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call.arguments) });
        }
        // Anthropic refuses a turn with empty content; an empty reply (no text, no calls) is left out,
        // its thinking with it. Thinking blocks go first, unchanged: signed, they are checked as sent.
        if (blocks.length > 0) push('assistant', [...replayBlocks(message), ...blocks]);
        break;
      }
      case 'tool':
        // Images a result carries travel inside its tool_result, as content blocks after the text.
        push('user', [
          {
            type: 'tool_result',
            tool_use_id: message.tool_call_id,
            content:
              message.images === undefined || message.images.length === 0
                ? message.content
                : [
                    { type: 'text', text: message.content },
                    ...message.images.map((image) => ({
                      type: 'image',
                      source: { type: 'base64', media_type: image.media_type, data: image.data },
                    })),
                  ],
          },
        ]);
        break;
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  }
  return turns;
}

/** A lone text block is sent as a plain string, the shorter, more common wire form, unless it carries a breakpoint. */
function collapse(turn: Turn, marked: boolean): JsonValue {
  const only = turn.content.length === 1 ? turn.content[0] : undefined;
  return {
    role: turn.role,
    content: !marked && only && only['type'] === 'text' ? (only['text'] as string) : turn.content,
  };
}

/** The thinking and redacted_thinking blocks the core left on an assistant message to send back. */
function replayBlocks(message: Extract<ConversationMessage, { role: 'assistant' }>): Block[] {
  return (message.replay?.items ?? []).filter(isJsonObject);
}

function parseArguments(text: string): JsonValue {
  try {
    const parsed = JSON.parse(text) as JsonValue;
    return isJsonObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function anthropicToolChoice(choice: ReconciledToolChoice): JsonValue | undefined {
  if (choice === null) return undefined;
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.name };
}
