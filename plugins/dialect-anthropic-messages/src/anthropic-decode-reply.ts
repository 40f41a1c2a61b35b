import type { AssistantReply, JsonValue, ReplyPayload, ToolCall } from '@cw/core';

type JsonObject = { [key: string]: JsonValue };

/** Folds Anthropic Messages SSE events (or one JSON message) into text, tool calls and usage. */
export function decodeAnthropicReply(payload: ReplyPayload): AssistantReply {
  if (payload.kind === 'json') {
    const message = asObject(payload.body);
    let text = '';
    const toolCalls: ToolCall[] = [];
    for (const block of asArray(message['content'])) {
      const entry = asObject(block);
      if (entry['type'] === 'text') text += asString(entry['text']);
      if (entry['type'] === 'tool_use') {
        toolCalls.push({
          id: asString(entry['id']),
          name: asString(entry['name']),
          arguments: JSON.stringify(entry['input'] ?? {}),
        });
      }
    }
    const usage = asObject(message['usage']);
    return { text, toolCalls, usage: pairOf(usage['input_tokens'], usage['output_tokens']) };
  }
  let text = '';
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  let inputTokens: JsonValue | undefined;
  let outputTokens: JsonValue | undefined;
  for (const raw of payload.events) {
    const event = asObject(raw);
    const index = typeof event['index'] === 'number' ? event['index'] : -1;
    switch (event['type']) {
      case 'message_start':
        inputTokens = asObject(asObject(event['message'])['usage'])['input_tokens'];
        break;
      case 'content_block_start': {
        const block = asObject(event['content_block']);
        if (block['type'] === 'tool_use')
          calls.set(index, { id: asString(block['id']), name: asString(block['name']), arguments: '' });
        break;
      }
      case 'content_block_delta': {
        const delta = asObject(event['delta']);
        text += anthropicTextDelta(event) ?? '';
        const call = calls.get(index);
        if (delta['type'] === 'input_json_delta' && call) call.arguments += asString(delta['partial_json']);
        break;
      }
      case 'message_delta':
        outputTokens = asObject(event['usage'])['output_tokens'];
        break;
      default:
        break;
    }
  }
  // A tool without parameters streams no input JSON at all; `arguments` is always a JSON text.
  const toolCalls = [...calls.values()].map((call) => (call.arguments === '' ? { ...call, arguments: '{}' } : call));
  return { text, toolCalls, usage: pairOf(inputTokens, outputTokens) };
}

/** The text one Anthropic Messages stream event adds. */
export function anthropicTextDelta(raw: JsonValue): string | undefined {
  const event = asObject(raw);
  const delta = asObject(event['delta']);
  return event['type'] === 'content_block_delta' && delta['type'] === 'text_delta'
    ? asString(delta['text']) || undefined
    : undefined;
}

function pairOf(input: JsonValue | undefined, output: JsonValue | undefined): AssistantReply['usage'] {
  return typeof input === 'number' && typeof output === 'number'
    ? { input_tokens: input, output_tokens: output }
    : null;
}

function asObject(value: JsonValue | undefined): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

function asArray(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

function asString(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}
