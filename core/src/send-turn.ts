import type { Entrypoint } from './body/wire-body.js';
import { renderManifest } from './manifest/build-manifest.js';
import type { RequestManifest } from './manifest/manifest-schema.js';
import { planTurn } from './plan-turn.js';
import type { ConversationMessage } from './prompt/conversation.js';
import type { AssistantReply } from './reply/assemble-reply.js';
import type { CwSnapshot } from './snapshot/snapshot.js';
import type { LockEvents } from './state/file-lock.js';
import { writeRecoveryFile, type RecoveryLocation } from './state/recovery-file.js';
import { readSession, SessionError, withSessionLock, writeTurn } from './state/session-store.js';
import type { ToolProjectionWarning } from './tools/project-tools.js';
import { apiKeyFor } from './transport/api-key.js';
import { sendPreparedRequest, type RetryNotice } from './transport/send-prepared-request.js';
import { transportSettingsFor } from './transport/transport-settings.js';

/** The outcome of one sent turn: what was sent (described as preview would) and what came back. */
export interface SentTurn {
  readonly manifest: RequestManifest;
  readonly reply: AssistantReply;
  /** The provider's finish label for the reply. */
  readonly finishReason: string;
  /** The projection warning of the request that was sent (the same value preview saw), or null. */
  readonly warning: ToolProjectionWarning | null;
}

/** The provider answered, but the session could not take the turn; the reply was kept elsewhere. */
export class ReplyNotSavedError extends Error {
  override readonly name = 'ReplyNotSavedError';
  readonly exitCode = 1;
  /** cw's words, the error code and the recovery file relative to its folder: nothing else is printed. */
  readonly safeMessage: string;
  constructor(
    readonly location: RecoveryLocation | null,
    readonly reply: AssistantReply,
    code: string,
  ) {
    const where =
      location === null
        ? 'and no recovery file could be written either'
        : location.folder === 'home'
          ? `it was written to ${location.file} in the cw home`
          : `it was written to ${location.file} in the system temporary folder`;
    super(`the reply could not be saved to the session (${code}); ${where}`);
    this.safeMessage = this.message;
  }
}

/** Options of one sent turn. */
export interface SendTurnOptions extends LockEvents {
  readonly home: string;
  readonly prompt: string;
  readonly entrypoint: Entrypoint;
  readonly env: NodeJS.ProcessEnv;
  /** `--max-retries`: wins over config. */
  readonly maxRetries?: number;
  readonly signal?: AbortSignal;
  /** Called with the request's projection warning before anything is sent, so a person sees it first. */
  readonly onWarning?: (warning: ToolProjectionWarning) => void;
  /** Receives reply text as it streams in; a blocking reply arrives whole in the result instead. */
  readonly onText?: (delta: string) => void;
  readonly onRetry?: (notice: RetryNotice) => void;
}

/**
 * Sends one turn. The session lock is taken before anything else, so concurrent sends on a session
 * run in turn, each planned on the latest history. The plan preview renders is the plan send acts
 * on; a blocked plan rethrows its typed error; the exact prepared bytes go out; only a reply the
 * dialect says is complete is appended, and a reply the session cannot take is kept in a recovery file.
 */
export async function sendTurn(snapshot: CwSnapshot, options: SendTurnOptions): Promise<SentTurn> {
  const name = snapshot.session.name;
  // A blocked turn or a missing key is known before any lock is taken: history only grows while
  // waiting, so nothing another send does could unblock it, and the home is left untouched.
  const planned = planTurn(snapshot, options.prompt, options.entrypoint);
  if (planned.status === 'blocked') throw planned.error;
  apiKeyFor(planned.prepared, options.env);
  return withSessionLock(
    options.home,
    name,
    async () => {
      // Another process may have added turns while this one waited for the lock.
      const messages = await readSession(options.home, name);
      const current: CwSnapshot = { ...snapshot, session: { name, messages } };
      const plan = planTurn(current, options.prompt, options.entrypoint);
      if (plan.status === 'blocked') throw plan.error;
      const { prepared } = plan;
      const dialect = current.registry.dialect(prepared.dialect);
      // prepareOutboundRequest already refused a dialect no plugin registered.
      if (!dialect) throw new Error(`dialect ${prepared.dialect} disappeared after planning`);
      apiKeyFor(prepared, options.env);
      const { warning } = prepared.projection;
      if (warning !== null) options.onWarning?.(warning);
      const settings = transportSettingsFor(
        current.config,
        prepared.route.row.route_id,
        options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries },
      );
      const { reply, finishReason } = await sendPreparedRequest(prepared, dialect, {
        env: options.env,
        settings,
        scrub: [options.prompt],
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onText ? { onText: options.onText } : {}),
        ...(options.onRetry ? { onRetry: options.onRetry } : {}),
      });
      const assistant: ConversationMessage = {
        role: 'assistant',
        content: reply.text,
        ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls } : {}),
        ...(reply.usage === null ? {} : { usage: reply.usage }),
      };
      const turn: ConversationMessage[] = [{ role: 'user', content: options.prompt }, assistant];
      try {
        await writeTurn(options.home, name, messages.length, turn);
      } catch (error) {
        const location = await writeRecoveryFile(options.home, name, { session: name, turn });
        throw new ReplyNotSavedError(location, reply, errorCode(error));
      }
      // The offline tokenizer only feeds the manifest's counts, which send does not show.
      return {
        manifest: renderManifest(current, plan, true, { offlineTokenizer: false }),
        reply,
        finishReason,
        warning,
      };
    },
    options,
  );
}

function errorCode(error: unknown): string {
  if (error instanceof SessionError) return error.changed ? 'the session changed' : 'the session could not be read';
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{2,20}$/.test(code) ? code : 'write failed';
}
