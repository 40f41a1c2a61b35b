import type { AssistantReply, Entrypoint } from './body/wire-body.js';
import type { ConversationMessage } from './prompt/conversation.js';
import { describeLayout, previewRequest } from './manifest/build-manifest.js';
import type { RequestManifest } from './manifest/manifest-types.js';
import { RequestPreparationError, prepareOutboundRequest, type PreparedOutboundRequest } from './prepare-outbound-request.js';
import type { CwSnapshot } from './snapshot/snapshot.js';
import { appendTurn } from './state/session-store.js';
import { apiKeyFor, sendPreparedRequest } from './transport/send-prepared-request.js';

/** The outcome of one sent turn: what was sent (described as preview would) and what came back. */
export interface SentTurn {
  readonly manifest: RequestManifest;
  readonly reply: AssistantReply;
}

/**
 * Sends one turn: the same preview path prepares the request (so preview and send cannot drift),
 * the exact prepared bytes go out, and only a successful reply is appended to the session.
 */
export async function sendTurn(
  snapshot: CwSnapshot,
  options: { home: string; prompt: string; entrypoint: Entrypoint; env: NodeJS.ProcessEnv },
): Promise<SentTurn> {
  const { manifest, prepared } = previewRequest(snapshot, options.prompt, options.entrypoint);
  const request = prepared ?? refuse(snapshot, options.prompt, options.entrypoint, manifest);
  apiKeyFor(request, options.env);
  const reply = await sendPreparedRequest(request, snapshot.registry.hooks, { env: options.env });
  const turn: ConversationMessage[] = [
    { role: 'user', content: options.prompt },
    reply.toolCalls.length > 0 ? { role: 'assistant', content: reply.text, tool_calls: reply.toolCalls } : { role: 'assistant', content: reply.text },
  ];
  await appendTurn(options.home, snapshot.session.name, snapshot.session.messages.length, turn);
  return { manifest, reply };
}

/** Explains, from the manifest, why this turn cannot be sent exactly as previewed. */
function refuse(snapshot: CwSnapshot, prompt: string, entrypoint: Entrypoint, manifest: RequestManifest): PreparedOutboundRequest {
  for (const section of [manifest.route, manifest.tools, manifest.body]) {
    if ('unavailable' in section) {
      const { reason, detail } = section.unavailable;
      throw new RequestPreparationError(`this turn cannot be sent: ${reason}${detail ? ` (${detail})` : ''}`);
    }
  }
  // Unreachable when every section is exact; prepare again so the error, if any, is the real one.
  const prepared = prepareOutboundRequest(snapshot, prompt, entrypoint);
  describeLayout(snapshot, prepared);
  return prepared;
}
