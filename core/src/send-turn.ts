import type { AssistantReply, Entrypoint } from './body/wire-body.js';
import type { ConversationMessage } from './prompt/conversation.js';
import { previewRequest, type ContextOverflow } from './manifest/build-manifest.js';
import type { RequestManifest } from './manifest/manifest-schema.js';
import { RequestPreparationError } from './prepare-outbound-request.js';
import type { CwSnapshot } from './snapshot/snapshot.js';
import { appendTurn } from './state/session-store.js';
import type { ToolProjectionWarning } from './tools/project-tools.js';
import { apiKeyFor, sendPreparedRequest } from './transport/send-prepared-request.js';

/** The outcome of one sent turn: what was sent (described as preview would) and what came back. */
export interface SentTurn {
  readonly manifest: RequestManifest;
  readonly reply: AssistantReply;
  /** The projection warning of the request that was sent (the same value preview saw), or null. */
  readonly warning: ToolProjectionWarning | null;
}

/**
 * The turn does not fit the route's input budget. cw has no overflow recovery (no compaction yet),
 * so it refuses rather than send a request the provider would reject or silently truncate.
 */
export class ContextOverflowError extends Error {
  override readonly name = 'ContextOverflowError';
  readonly exitCode = 1;
  constructor(readonly overflow: ContextOverflow) {
    super(
      `this turn needs about ${overflow.estimatedInputTokens} input tokens but the input budget of this route is ${overflow.inputBudgetTokens}; ` +
        'start a new session (config field session) or pick a route with a larger context window; nothing was sent',
    );
  }
}

/**
 * Sends one turn: the same preview path prepares the request (so preview and send cannot drift),
 * the exact prepared bytes go out, and only a successful reply is appended to the session.
 */
export async function sendTurn(
  snapshot: CwSnapshot,
  options: {
    home: string;
    prompt: string;
    entrypoint: Entrypoint;
    env: NodeJS.ProcessEnv;
    /** Called with the request's projection warning before anything is sent, so a person sees it first. */
    onWarning?: (warning: ToolProjectionWarning) => void;
    /** Receives reply text as it streams in; a blocking reply arrives whole in the result instead. */
    onText?: (delta: string) => void;
  },
): Promise<SentTurn> {
  // The offline tokenizer only feeds the manifest's counts, which send does not show.
  const { manifest, prepared, overflow } = previewRequest(snapshot, options.prompt, options.entrypoint, {
    offlineTokenizer: false,
  });
  if (overflow !== null) throw new ContextOverflowError(overflow);
  const request = prepared ?? refuse(manifest);
  apiKeyFor(request, options.env);
  const { warning } = request.projection;
  if (warning !== null) options.onWarning?.(warning);
  const reply = await sendPreparedRequest(request, snapshot.registry.hooks, {
    env: options.env,
    ...(options.onText ? { onText: options.onText } : {}),
  });
  const turn: ConversationMessage[] = [
    { role: 'user', content: options.prompt },
    reply.toolCalls.length > 0
      ? { role: 'assistant', content: reply.text, tool_calls: reply.toolCalls }
      : { role: 'assistant', content: reply.text },
  ];
  await appendTurn(options.home, snapshot.session.name, snapshot.session.messages.length, turn);
  return { manifest, reply, warning };
}

/** Explains, from the manifest, why this turn cannot be sent exactly as previewed. */
function refuse(manifest: RequestManifest): never {
  for (const section of [manifest.route, manifest.tools, manifest.body]) {
    if ('unavailable' in section) {
      const { reason, detail } = section.unavailable;
      throw new RequestPreparationError(`this turn cannot be sent: ${reason}${detail ? ` (${detail})` : ''}`);
    }
  }
  throw new RequestPreparationError('this turn cannot be sent: the request could not be prepared');
}
