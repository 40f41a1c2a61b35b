import { type CoreSendResources as SendResources, turnHooksOf } from './turn/core-turn-types.js';
import type { ApprovalRules } from './agent/approval-policy.js';
import type { ApprovalPosture } from './config/approval-posture.js';
import { runToolCalls, type AskAnswer, type AskedCall, type ToolCallRecord } from './agent/run-tool-calls.js';
import { commandBinding } from './agent/spawn-bound-to-cw.js';
import { testPauseOf } from './agent/test-pause.js';
import { toolEnvironment } from './agent/tool-environment.js';
import { homedir } from 'node:os';
import type { CommandSandbox } from './sandbox/command-sandbox.js';
import { resolveHiddenPaths, workspaceFiles } from './sandbox/workspace-files.js';
import type { Entrypoint } from './body/wire-body.js';
import { renderManifest } from './manifest/build-manifest.js';
import type { RequestManifest } from './manifest/manifest-schema.js';
import { TurnBlockedError } from './plan/turn-blocked-error.js';
import { planTurn, type ReadyTurn, type TurnInput, type TurnPlan } from './plan-turn.js';
import type { ConversationMessage, ToolCall } from './prompt/conversation.js';
import type { AssistantReply } from './reply/assemble-reply.js';
import type { CwSnapshot } from './snapshot/snapshot.js';
import type { TurnPrompt } from './prompt/user-message.js';
import type { LockEvents } from './state/file-lock.js';
import { writeRecoveryFile, type RecoveryLocation } from './state/recovery-file.js';
import { readSession, SessionError, withSessionLock, writeTurn } from './state/session-store.js';
import { startedCallsOf } from './state/started-calls.js';
import type { ToolImplementation, ToolLimits } from './tools/tool-contract.js';
import type { ToolProjectionWarning } from './tools/tool-projection-types.js';
import { apiKeyFor } from './transport/api-key.js';
import { sendPreparedRequest, type RetryNotice } from './transport/send-prepared-request.js';
import { requestUrlFor } from './transport/test-origin.js';
import { transportSettingsFor } from './transport/transport-settings.js';
import { gateTurn } from './turn/gate-turn.js';
import type { PrepareContext, SessionScope, TurnNotice } from './turn/turn-hooks.js';

/** One model request of the loop and what came of it. */
export interface AgentStep {
  /** Whether a new prompt or the previous step's tool results started this request. */
  readonly input: TurnInput;
  /** The request's body_sha256: what `cw preview-request` showed for it. */
  readonly bodySha256: string;
  /** SHA-256 of the exact bytes the request went out as (the manifest's body_wire_sha256). */
  readonly bodyWireSha256: string;
  readonly reply: AssistantReply;
  readonly finishReason: string;
  /** The calls the loop ran (or refused) after this reply; empty when it ran none. */
  readonly toolResults: readonly ToolCallRecord[];
}

/** Why the loop stopped. */
export type LoopStop =
  /** The model answered without calling a tool. */
  | 'answered'
  /** The model called tools and the posture (`never`, or --no-tool-runs) hands them back unrun. */
  | 'tool-calls-returned'
  /** The step limit was reached after running the last step's tools; the session awaits continuation. */
  | 'step-limit'
  /** Ctrl-C while tools ran: the calls that ran are answered, the rest answered "not executed". */
  | 'interrupted';

/** The outcome of one `cw send`: what was sent (described as preview would) and every step. */
export interface SentTurn {
  /** The manifest of the first request, exactly as preview would have described it. */
  readonly manifest: RequestManifest;
  /** The last reply. */
  readonly reply: AssistantReply;
  readonly finishReason: string;
  /** The projection warning of the first request (the same value preview saw), or null. */
  readonly warning: ToolProjectionWarning | null;
  readonly steps: readonly AgentStep[];
  readonly stopped: LoopStop;
}

/** The provider answered, but the session could not take the turn; the reply was kept elsewhere. */
export class ReplyNotSavedError extends Error {
  override readonly name = 'ReplyNotSavedError';
  readonly exitCode = 1;
  /** cw's words, the error code and the recovery file relative to its folder: nothing else is printed. */
  readonly safeMessage: string;
  constructor(
    readonly location: RecoveryLocation | null,
    readonly reply: AssistantReply | null,
    code: string,
  ) {
    const where =
      location === null
        ? 'and no recovery file could be written either'
        : location.folder === 'home'
          ? `it was written to ${location.file} in the cw home`
          : `it was written to ${location.file} in the system temporary folder`;
    super(`the ${reply === null ? 'tool results' : 'reply'} could not be saved to the session (${code}); ${where}`);
    this.safeMessage = this.message;
  }
}

/** How the loop runs tools: the posture, the rules, where, and with which limits. */
export interface AgentLoopOptions {
  readonly posture: ApprovalPosture;
  readonly rules: ApprovalRules;
  /** The workspace root, a real path (docs/agent-loop.md says how it is found). */
  readonly workspace: string;
  /** Model requests at most; the tools of the last one still run, then the loop stops. */
  readonly maxSteps: number;
  readonly limits: ToolLimits;
  /** Asks the person about a call under the `ask` posture; absent means there is no one to ask. */
  readonly ask?: (call: AskedCall) => Promise<AskAnswer>;
  readonly onToolStart?: (call: ToolCall, summary: string) => void;
  readonly onToolEnd?: (record: ToolCallRecord) => void;
  /** Tools from outside the registry the host adds for this command (the features add their own through `stepTools`). */
  readonly extraTools?: readonly ToolImplementation[];
  /** Where commands and submit hooks run (docs/security.md); `askForCommands` when the sandbox is on but none was found. */
  readonly sandbox?: CommandSandbox;
  readonly askForCommands?: boolean;
}

/** Options of one `cw send`. */
export interface SendTurnOptions extends LockEvents {
  readonly home: string;
  /** The new user message; undefined continues a loop that stopped after running tools. */
  readonly prompt: string | undefined;
  readonly entrypoint: Entrypoint;
  readonly env: NodeJS.ProcessEnv;
  /** `--max-retries`: wins over config. */
  readonly maxRetries?: number;
  readonly signal?: AbortSignal;
  /** Absent: one request, tool calls handed back unrun (the `never` posture). */
  readonly loop?: AgentLoopOptions;
  /** Called with the first request's projection warning before anything is sent, so a person sees it first. */
  readonly onWarning?: (warning: ToolProjectionWarning) => void;
  /** Receives reply text as it streams in; a blocking reply arrives whole in the result instead. */
  readonly onText?: (delta: string) => void;
  readonly onRetry?: (notice: RetryNotice) => void;
  /** Called when a step's request is about to go out (1-based), with its body_sha256. */
  readonly onStep?: (step: number, input: TurnInput, bodySha256: string) => void;
  /** Receives what features report, of the kinds they registered (an auto-route choice, a compaction). */
  readonly onNotice?: (notice: TurnNotice) => void;
  /** Receives reasoning text as it streams in. */
  readonly onReasoning?: (delta: string) => void;
  /** Called when a step's reply is complete and saved, with its usage (null when the provider reported none). */
  readonly onStepFinish?: (step: AgentStep) => void;
  /** What features may keep open for the host's next turn (MCP servers); absent, each send closes all it opened. */
  readonly scope?: SessionScope;
}

/**
 * Sends one turn and runs the agent loop: request, decode, approve and run the tool calls, append
 * the results, and the next request, until the model answers without tools, the step limit, or
 * Ctrl-C. The session lock is held throughout, so concurrent sends run in turn. Every request is
 * planned by planTurn from the session as it stands (so each one is what preview would describe),
 * only a reply the dialect says is complete is kept, and each step is saved as it completes.
 *
 * The loop knows no feature: the turn hooks (docs/architecture.md, "The turn's hooks") gate it,
 * prepare its prompt, open what it holds, resolve a block, add step tools and account for each
 * request, in the order the stages set.
 */
export async function sendTurn(loaded: CwSnapshot, options: SendTurnOptions): Promise<SentTurn> {
  const turn = turnHooksOf(loaded.registry);
  const context = prepareContext(options);
  // The state as a send reads it: a short update by another process is waited out, not refused.
  const current = await turn.loadState.promise(loaded, { home: options.home, fresh: false, waiting: true });
  // What a send cannot prepare away (a spent goal, a plugin's gate) stops it before any program runs.
  const input: TurnInput | null = options.prompt !== undefined ? 'prompt' : 'continuation';
  const stop = gateTurn(current, input, 'before-prepare');
  if (stop !== null) throw new TurnBlockedError(stop.reason, stop.detail, stop.remedy);
  // Submit hooks, prompt resolution and classification, in the gates' order; each may stop the turn.
  const draft = await turn.prepareTurn.promise({ snapshot: current, prompt: options.prompt }, context);
  const opened = await turn.openSend.promise(
    { snapshot: draft.snapshot, tools: options.loop?.extraTools ?? [] },
    context,
  );
  try {
    return await loop(opened, draft.prompt, options, context);
  } finally {
    await turn.closeSend.promise(opened, context);
  }
}

/** The settings the features see for this send. */
function prepareContext(options: SendTurnOptions): PrepareContext {
  return {
    mode: 'send',
    home: options.home,
    entrypoint: options.entrypoint,
    env: options.env,
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.loop ? { toolTimeoutMs: options.loop.limits.commandTimeoutMs } : {}),
    ...(options.loop?.sandbox ? { sandbox: options.loop.sandbox } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
    notify: (notice) => options.onNotice?.(notice),
  };
}

/** The loop itself, on the prepared prompt and the resources the send holds. */
async function loop(
  resources: SendResources,
  preparedPrompt: TurnPrompt | undefined,
  options: SendTurnOptions,
  context: PrepareContext,
): Promise<SentTurn> {
  const snapshot = resources.snapshot;
  const turn = turnHooksOf(snapshot.registry);
  // Files are found by the session's key (docs/cli.md, "Sessions"); people see its name.
  const { name, key } = snapshot.session;
  // A blocked turn, a missing key or a test origin that cannot be honoured is known before any lock
  // is taken: history only grows while waiting, so nothing another send does could unblock it, and
  // the home is left untouched. A block a feature resolves under the lock (auto-compaction) waits.
  const planned = planTurn(snapshot, preparedPrompt, options.entrypoint);
  if (planned.status === 'blocked' && (!planned.resolvable || planned.prepared === null)) throw planned.error;
  const firstPrepared = planned.prepared as NonNullable<typeof planned.prepared>;
  requestUrlFor(firstPrepared.url, apiKeyFor(firstPrepared, options.env), firstPrepared.apiKeyEnv, options.env);
  const agent = options.loop;
  const toolEnv = toolEnvironment(options.env, snapshot.registry.rows, snapshot.config);
  const alwaysAllowed = new Set<string>();
  // The step's own signal: subscribed before the reply is saved, so a Ctrl-C landing at any await
  // from here on stops every call that has not started (docs/agent-loop.md, "Ctrl-C").
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  const pause = testPauseOf(options.env, controller.signal);
  return withSessionLock(
    options.home,
    key,
    async () => {
      // Read again under the lock: a send that ran meanwhile may have added turns or used up the goal.
      let state = await turn.loadState.promise(snapshot, { home: options.home, fresh: false, waiting: true });
      let messages = await readSession(options.home, key);
      let prompt = preparedPrompt;
      const steps: AgentStep[] = [];
      let first: { plan: ReadyTurn; snapshot: CwSnapshot } | null = null;
      for (let step = 1; ; step++) {
        let current: CwSnapshot = { ...state, session: { name, key, messages } };
        let plan: TurnPlan = planTurn(current, prompt, options.entrypoint);
        if (plan.status === 'blocked' && plan.resolvable) {
          const resolved = await turn.resolveBlock.promise(plan, { ...context, snapshot: current });
          if (resolved !== undefined) {
            current = resolved.snapshot;
            state = current;
            messages = current.session.messages;
            plan = planTurn(current, prompt, options.entrypoint);
          }
        }
        if (plan.status === 'blocked') throw plan.error;
        const ready = plan;
        if (first === null) {
          first = { plan: ready, snapshot: current };
          if (ready.prepared.projection.warning !== null) options.onWarning?.(ready.prepared.projection.warning);
        }
        options.onStep?.(step, ready.input, ready.prepared.canonical.sha256);
        const { reply, finishReason } = await exchange(current, ready, options);
        const bodySha256 = ready.prepared.canonical.sha256;
        const bodyWireSha256 = ready.prepared.canonical.wireSha256;
        const assistant: ConversationMessage = {
          role: 'assistant',
          content: reply.text,
          ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls } : {}),
          ...(reply.usage === null ? {} : { usage: reply.usage }),
          ...(reply.replay.length === 0 ? {} : { replay: { dialect: ready.prepared.dialect, items: reply.replay } }),
          body_sha256: bodySha256,
        };
        // The user message as this route was sent it: mentioned files inline, images it took.
        const user = ready.prepared.userMessage;
        const added: ConversationMessage[] = user === null ? [assistant] : [user, assistant];
        await pause?.('reply-received');
        messages = await save(
          options.home,
          snapshot.session,
          messages,
          added,
          reply,
          ready.prepared.route.row.route_id,
          pause,
        );
        current = { ...current, session: { name, key, messages } };
        await turn.afterSave.promise({ home: options.home, snapshot: current, plan: ready, userMessage: user, prompt });
        // Every completed request is accounted for, so the next step meets the gates as they now stand.
        state = await turn.afterRequest.promise(current, {
          home: options.home,
          snapshot: current,
          plan: ready,
          reply,
          side: false,
        });
        // This request's step, with the tool calls the loop ran after it.
        const stepOf = (toolResults: readonly ToolCallRecord[]): AgentStep => ({
          input: ready.input,
          bodySha256,
          bodyWireSha256,
          reply,
          finishReason,
          toolResults,
        });
        const done = (stopped: LoopStop, toolResults: readonly ToolCallRecord[] = []): SentTurn => {
          const finished = stepOf(toolResults);
          steps.push(finished);
          options.onStepFinish?.(finished);
          const firstPlan = first as { plan: ReadyTurn; snapshot: CwSnapshot };
          return {
            manifest: renderManifest(firstPlan.snapshot, firstPlan.plan, options.prompt !== undefined, {
              offlineTokenizer: false,
            }),
            reply,
            finishReason,
            warning: firstPlan.plan.prepared.projection.warning,
            steps,
            stopped,
          };
        };
        if (reply.toolCalls.length === 0) return done('answered');
        if (agent === undefined || agent.posture === 'never') return done('tool-calls-returned');
        await pause?.('reply-saved');
        // Each call is marked started before it starts, so a crash is answered with the truth.
        const started = await startedCallsOf(options.home, key, messages.length);
        let records: ToolCallRecord[];
        // The file tools honour what the sandbox hides from commands (docs/security.md).
        const files = workspaceFiles(
          agent.workspace,
          await resolveHiddenPaths({
            home: homedir(),
            cwHome: options.home,
            denyRead: current.config.sandbox.deny_read,
            cwd: agent.workspace,
          }),
        );
        try {
          records = await runToolCalls(reply.toolCalls, {
            registry: snapshot.registry,
            extraTools: turn.stepTools.call(new Map(resources.tools.map((tool) => [tool.name, tool] as const)), {
              snapshot: current,
              plan: ready,
              resources,
            }),
            posture: agent.posture,
            rules: agent.rules,
            context: {
              workspace: agent.workspace,
              signal: controller.signal,
              env: toolEnv,
              limits: agent.limits,
              files,
              ...(agent.sandbox ? { sandbox: agent.sandbox } : {}),
              binding: commandBinding(pause),
            },
            ...(agent.askForCommands ? { askForCommands: true } : {}),
            ...(agent.ask ? { ask: agent.ask } : {}),
            alwaysAllowed,
            ...(agent.onToolStart ? { onStart: agent.onToolStart } : {}),
            ...(agent.onToolEnd ? { onEnd: agent.onToolEnd } : {}),
            beforeStart: (calls) => started.mark(calls.map((call) => call.id)),
            ...(pause ? { pause } : {}),
          });
          await pause?.('results-ready');
          const results: ConversationMessage[] = records.map((record) => ({
            role: 'tool',
            tool_call_id: record.call.id,
            name: record.call.name,
            content: record.content,
            status: record.status,
            ...(record.images ? { images: record.images } : {}),
          }));
          messages = await save(options.home, snapshot.session, messages, results, null, undefined, pause);
          await started.clear().catch(() => undefined);
        } finally {
          started.close();
        }
        if (options.signal?.aborted) return done('interrupted', records);
        if (step >= agent.maxSteps) return done('step-limit', records);
        const finished = stepOf(records);
        steps.push(finished);
        options.onStepFinish?.(finished);
        prompt = undefined;
      }
    },
    options,
  ).finally(() => options.signal?.removeEventListener('abort', onAbort));
}

/** One request of the loop: the prepared bytes out, the decoded reply back. */
async function exchange(current: CwSnapshot, plan: ReadyTurn, options: SendTurnOptions) {
  const { prepared } = plan;
  const dialect = current.registry.dialect(prepared.dialect);
  // prepareOutboundRequest already refused a dialect no plugin registered.
  if (!dialect) throw new Error(`dialect ${prepared.dialect} disappeared after planning`);
  const settings = transportSettingsFor(
    current.config,
    prepared.route.row.route_id,
    options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries },
  );
  return sendPreparedRequest(prepared, dialect, {
    env: options.env,
    settings,
    // A provider's error may echo the message back: the prompt and the turn context it led are never printed.
    scrub: [options.prompt, prepared.userMessage?.content, prepared.userMessage?.turn_context].filter(
      (text): text is string => text !== undefined,
    ),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onText ? { onText: options.onText } : {}),
    ...(options.onReasoning ? { onReasoning: options.onReasoning } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  });
}

/** Appends messages under the held lock; what the session cannot take goes to a recovery file. */
async function save(
  home: string,
  session: { readonly name: string; readonly key: string },
  history: readonly ConversationMessage[],
  added: readonly ConversationMessage[],
  reply: AssistantReply | null,
  route?: string,
  pause?: (point: string) => Promise<void>,
): Promise<readonly ConversationMessage[]> {
  try {
    await writeTurn(home, session.key, history.length, added, route, pause);
  } catch (error) {
    const location = await writeRecoveryFile(home, session.name, { session: session.name, turn: added });
    throw new ReplyNotSavedError(location, reply, errorCode(error));
  }
  return [...history, ...added];
}

function errorCode(error: unknown): string {
  if (error instanceof SessionError) return error.changed ? 'the session changed' : 'the session could not be read';
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{2,20}$/.test(code) ? code : 'write failed';
}
