import type { BuildContext, ConversationMessage, JsonValue, ReconciledToolChoice, WireBody } from '@cw/core/plugin';
import { isJsonObject, setValueAt } from '@cw/plugin-kit';
import { wireCallId } from './gemini-call-ids.js';
import { signatureItems } from './gemini-signatures.js';

type Part = { [key: string]: JsonValue };
type Content = { role: 'user' | 'model'; parts: Part[] };

/**
 * Builds a Gemini `generateContent` body in wire key order: systemInstruction, contents, tools,
 * toolConfig, generationConfig. The model is not in the body (the route's path names it), and
 * neither is streaming (the streaming path asks for it).
 */
export function buildGeminiBody(context: BuildContext): WireBody {
  const body: WireBody = {};
  if (context.system !== '') body['systemInstruction'] = { parts: [{ text: context.system }] };
  body['contents'] = geminiContents(context.messages);
  if (context.tools.length > 0) {
    body['tools'] = [
      {
        functionDeclarations: context.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          // Plain JSON Schema, projected to the route's subset; the OpenAPI-style `parameters` would
          // turn unions into untyped nodes and refuse `additionalProperties`.
          parametersJsonSchema: tool.parameters as JsonValue,
        })),
      },
    ];
  }
  const toolConfig = geminiToolConfig(context.toolChoice);
  if (toolConfig !== undefined) body['toolConfig'] = toolConfig;
  const capField = context.row.output_cap.field;
  if (capField !== null) setValueAt(body, capField, context.outputCapTokens);
  return body;
}

/**
 * The conversation as contents: user turns and tool results are `user` contents, replies `model`
 * contents. Consecutive contents of one role are merged, so the results of one step's calls travel
 * together in a single content, as many as the calls they answer.
 */
function geminiContents(messages: readonly ConversationMessage[]): JsonValue[] {
  const contents: Content[] = [];
  const push = (role: Content['role'], parts: Part[]): void => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last !== undefined && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        push('user', [
          { text: message.content },
          ...(message.images ?? []).map((image) => ({ inlineData: { mimeType: image.media_type, data: image.data } })),
        ]);
        break;
      case 'assistant':
        // A reply with neither text nor calls nor signature has no part to send; the API refuses empty parts.
        push('model', modelParts(message));
        break;
      case 'tool': {
        const id = wireCallId(message.tool_call_id);
        push('user', [
          {
            functionResponse: {
              ...(id === null ? {} : { id }),
              name: message.name,
              response: { output: message.content },
              // Images a result carries travel inside its functionResponse, as inline data parts.
              ...(message.images === undefined || message.images.length === 0
                ? {}
                : {
                    parts: message.images.map((image) => ({
                      inlineData: { mimeType: image.media_type, data: image.data },
                    })),
                  }),
            },
          },
        ]);
        break;
      }
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  }
  return contents;
}

/**
 * A reply's parts: its text, then its function calls, each thought signature back on the part it
 * came with. A signature that rode on an empty text part comes back on one.
 */
function modelParts(message: Extract<ConversationMessage, { role: 'assistant' }>): Part[] {
  const signatures = signatureItems(message.replay?.items ?? []);
  const textSignature = signatures.filter((item) => item.on === 'text').at(-1)?.thoughtSignature;
  const parts: Part[] = [];
  if (message.content !== '' || textSignature !== undefined) {
    parts.push({
      text: message.content,
      ...(textSignature === undefined ? {} : { thoughtSignature: textSignature }),
    });
  }
  (message.tool_calls ?? []).forEach((call, index) => {
    const id = wireCallId(call.id);
    const signature = signatures.find((item) => item.on === 'call' && item.index === index)?.thoughtSignature;
    parts.push({
      functionCall: { ...(id === null ? {} : { id }), name: call.name, args: argumentsObject(call.arguments) },
      ...(signature === undefined ? {} : { thoughtSignature: signature }),
    });
  });
  return parts;
}

// Function call arguments go back as an object; text the model produced that is not one becomes `{}`
// (the call was answered as invalid, and its text is in the result the model reads).
function argumentsObject(text: string): JsonValue {
  try {
    const parsed = JSON.parse(text) as JsonValue;
    return isJsonObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function geminiToolConfig(choice: ReconciledToolChoice): JsonValue | undefined {
  if (choice === null) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
}
