import type { AssistantReply, JsonValue, ReplyPayload, ToolCall } from '@cw/core';

type JsonObject = { [key: string]: JsonValue };

/** Folds Responses SSE events (or one JSON response) into text, tool calls and usage. */
export function decodeResponsesReply(payload: ReplyPayload): AssistantReply {
  if (payload.kind === 'json') return fromResponse(asObject(payload.body));
  let streamedText = '';
  for (const raw of payload.events) {
    const event = asObject(raw);
    streamedText += responsesTextDelta(event) ?? '';
    // The completed event carries the whole response; prefer it over the deltas when it arrives.
    // An incomplete response (cut at the output cap) still carries its output and usage.
    if (event['type'] === 'response.completed' || event['type'] === 'response.incomplete') {
      const final = fromResponse(asObject(event['response']));
      return { ...final, text: final.text || streamedText };
    }
  }
  return { text: streamedText, toolCalls: [], usage: null };
}

/** The text one Responses stream event adds. */
export function responsesTextDelta(raw: JsonValue): string | undefined {
  const event = asObject(raw);
  return event['type'] === 'response.output_text.delta' ? asString(event['delta']) || undefined : undefined;
}

function fromResponse(response: JsonObject): AssistantReply {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const raw of Array.isArray(response['output']) ? response['output'] : []) {
    const item = asObject(raw);
    if (item['type'] === 'function_call') {
      toolCalls.push({
        id: asString(item['call_id']),
        name: asString(item['name']),
        arguments: asString(item['arguments']),
      });
    }
    if (item['type'] === 'message' && Array.isArray(item['content'])) {
      for (const part of item['content']) {
        const entry = asObject(part);
        if (entry['type'] === 'output_text') text += asString(entry['text']);
      }
    }
  }
  const usage = asObject(response['usage']);
  const input = usage['input_tokens'];
  const output = usage['output_tokens'];
  return {
    text,
    toolCalls,
    usage:
      typeof input === 'number' && typeof output === 'number' ? { input_tokens: input, output_tokens: output } : null,
  };
}

function asObject(value: JsonValue | undefined): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

function asString(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}
