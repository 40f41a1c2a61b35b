import type { AssistantReply, JsonValue, ReplyPayload, ToolCall } from '@cw/core';

type JsonObject = { [key: string]: JsonValue };

/** Folds Chat Completions SSE chunks (or one JSON completion) into text, tool calls and usage. */
export function decodeChatReply(payload: ReplyPayload): AssistantReply {
  if (payload.kind === 'json') {
    const message = objectAt(arrayAt(payload.body, 'choices')[0], 'message');
    const calls = arrayAt(message, 'tool_calls').map((call): ToolCall => {
      const fn = objectAt(call, 'function');
      return { id: stringAt(call, 'id'), name: stringAt(fn, 'name'), arguments: stringAt(fn, 'arguments') };
    });
    return { text: stringAt(message, 'content'), toolCalls: calls, usage: usageOf(payload.body) };
  }
  let text = '';
  const calls: { id: string; name: string; arguments: string }[] = [];
  let usage: AssistantReply['usage'] = null;
  for (const event of payload.events) {
    const delta = objectAt(arrayAt(event, 'choices')[0], 'delta');
    text += chatTextDelta(event) ?? '';
    for (const callDelta of arrayAt(delta, 'tool_calls')) {
      const index =
        typeof (callDelta as JsonObject)['index'] === 'number'
          ? ((callDelta as JsonObject)['index'] as number)
          : calls.length;
      const call = (calls[index] ??= { id: '', name: '', arguments: '' });
      const fn = objectAt(callDelta, 'function');
      call.id ||= stringAt(callDelta, 'id');
      call.name ||= stringAt(fn, 'name');
      call.arguments += stringAt(fn, 'arguments');
    }
    usage = usageOf(event) ?? usage;
  }
  return { text, toolCalls: calls.filter(Boolean), usage };
}

/** The text one Chat Completions stream chunk adds. */
export function chatTextDelta(event: JsonValue): string | undefined {
  return stringAt(objectAt(arrayAt(event, 'choices')[0], 'delta'), 'content') || undefined;
}

function usageOf(value: JsonValue | undefined): AssistantReply['usage'] {
  const usage = objectAt(value, 'usage');
  const input = usage['prompt_tokens'];
  const output = usage['completion_tokens'];
  return typeof input === 'number' && typeof output === 'number'
    ? { input_tokens: input, output_tokens: output }
    : null;
}

function objectAt(value: JsonValue | undefined, key: string): JsonObject {
  const child = typeof value === 'object' && value !== null && !Array.isArray(value) ? value[key] : undefined;
  return typeof child === 'object' && child !== null && !Array.isArray(child) ? child : {};
}

function arrayAt(value: JsonValue | undefined, key: string): JsonValue[] {
  const child = typeof value === 'object' && value !== null && !Array.isArray(value) ? value[key] : undefined;
  return Array.isArray(child) ? child : [];
}

function stringAt(value: JsonValue | undefined, key: string): string {
  const child = typeof value === 'object' && value !== null && !Array.isArray(value) ? value[key] : undefined;
  return typeof child === 'string' ? child : '';
}
