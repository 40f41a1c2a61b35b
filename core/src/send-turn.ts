import type { ApprovalPosture, ApprovalRules } from './agent/approval-policy.js';
import { runToolCalls, type AskAnswer, type ToolCallRecord } from './agent/run-tool-calls.js';
import { toolEnvironment } from './agent/tool-environment.js';
import type { Entrypoint } from './body/wire-body.js';
import { type AutoRouteChoice, writeAutoRouteChoice } from './auto-route/auto-route-choice.js';
import { classifyRoute } from './auto-route/classify-route.js';
import { onRoute } from './auto-route/on-route.js';
import { compactHistory } from './compaction/compact-history.js';
import type { SideRequestOptions } from './side-request/side-request.js';
import { SEARCH_TOOLS_NAME, searchToolsImplementation } from './catalog/defer-catalog.js';
import { readGoalGateWaiting } from './goal/goal-gate.js';
import { recordGoalUsage } from './goal/record-goal-usage.js';
import { renderManifest } from './manifest/build-manifest.js';
import type { RequestManifest } from './manifest/manifest-schema.js';
import { planTurn, type ReadyTurn, type TurnInput } from './plan-turn.js';
import type { ConversationMessage, ToolCall } from './prompt/conversation.js';
import type { AssistantReply } from './reply/assemble-reply.js';
import type { CwSnapshot } from './snapshot/snapshot.js';
import type { TurnPrompt } from './submit/user-message.js';
import { runMessageSubmitHooks } from './submit/message-submit-hooks.js';
import { resolveTurnPrompt } from './submit/resolve-turn-prompt.js';
import { clearPendingSkill } from './skills/pending-skill.js';
import type { LockEvents } from './state/file-lock.js';
import { writeRecoveryFile, type RecoveryLocation } from './state/recovery-file.js';
import { readSession, SessionError, withSessionLock, writeTurn } from './state/session-store.js';
import type { ToolImplementation, ToolLimits } from './tools/tool-contract.js';
import type { ToolProjectionWarning } from './tools/project-tools.js';
import { apiKeyFor } from './transport/api-key.js';
import { sendPreparedRequest, type RetryNotice } from './transport/send-prepared-request.js';
import { requestUrlFor } from './transport/test-origin.js';
import { transportSettingsFor } from './transport/transport-settings.js';

/** One model request of the loop and what came of it. */
export interface AgentStep {
  /** Whether a new prompt or the previous step's tool results started this request. */
  readonly input: TurnInput;
  /** The request's body_sha256: what `cw preview-request` showed for it. */
  readonly bodySha256: string;
  readonly reply: AssistantReply;
  readonly finishReason: string;
  /** The calls the loop ran (or refused) after this reply; empty when it ran none. */
  readonly toolResults: readonly ToolCallRecord[];
}

/** Why the loop stopped. */
export type LoopStop =
  /** The model answered without calling a tool. */
  | 'answered'
  /** The model called tools and the posture (`never`, or --no-tools) hands them back unrun. */
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
  readonly ask?: (call: { readonly name: string; readonly summary: string }) => Promise<AskAnswer>;
  readonly onToolStart?: (call: ToolCall, summary: string) => void;
  readonly onToolEnd?: (record: ToolCallRecord) => void;
  /** Tools from outside the registry for this command: the connected MCP servers' tools. */
  readonly extraTools?: readonly ToolImplementation[];
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
  /** Called when a step's request is about to go out (1-based). */
  readonly onStep?: (step: number, input: TurnInput) => void;
  /** Called with the route auto routing chose, before the turn is planned on it. */
  readonly onAutoRoute?: (route: string) => void;
  /** Called after auto-compaction replaced older messages with a summary, before the request goes out. */
  readonly onCompaction?: (done: { readonly summarised: number; readonly kept: number }) => void;
}

/**
 * Sends one turn and runs the agent loop: request, decode, approve and run the tool calls, append
 * the results, and the next request, until the model answers without tools, the step limit, or
 * Ctrl-C. The session lock is held throughout, so concurrent sends run in turn. Every request is
 * planned by planTurn from the session as it stands (so each one is what preview would describe),
 * only a reply the dialect says is complete is kept, and each step is saved as it completes.
 */
export async function sendTurn(loaded: CwSnapshot, options: SendTurnOptions): Promise<SentTurn> {
  // Files are found by the session's key (docs/cli.md, "Sessions"); people see its name.
  const { name, key } = loaded.session;
  // The goal as a send reads it: a short update by another process is waited out, not refused.
  const gated = withGoalGate(loaded, await readGoalGateWaiting(options.home, key));
  const hooked = await runSubmitHooks(gated, options);
  // The prompt is resolved once, as preview resolves it (file mentions, the pending skill); a failure
  // stops the turn below, before anything is sent or saved.
  const resolved = await resolveTurnPrompt(hooked.snapshot, hooked.prompt);
  const resolvedPrompt = resolved.prompt;
  // Auto routing asks the classifier route once, for the prompt as resolved; the turn is then planned on its choice.
  const { snapshot, choice } = await routeAutomatically(resolved.snapshot, resolvedPrompt, options);
  // A blocked turn, a missing key or a test origin that cannot be honoured is known before any lock
  // is taken: history only grows while waiting, so nothing another send does could unblock it, and
  // the home is left untouched.
  // Auto-compaction is the one block a send resolves itself: it compacts under the lock, then plans again.
  const planned = planTurn(snapshot, resolvedPrompt, options.entrypoint);
  if (planned.status === 'blocked' && (!planned.compaction || planned.prepared === null)) throw planned.error;
  const firstPrepared = planned.prepared as NonNullable<typeof planned.prepared>;
  requestUrlFor(firstPrepared.url, apiKeyFor(firstPrepared, options.env), firstPrepared.apiKeyEnv, options.env);
  const loop = options.loop;
  const toolEnv = toolEnvironment(options.env, snapshot.registry.rows, snapshot.config);
  const alwaysAllowed = new Set<string>();
  return withSessionLock(
    options.home,
    key,
    async () => {
      let messages = await readSession(options.home, key);
      // Read again under the lock: a send that ran meanwhile may have used up the budget.
      let goal = await readGoalGateWaiting(options.home, key);
      let prompt = resolvedPrompt;
      const steps: AgentStep[] = [];
      let first: { plan: ReadyTurn; snapshot: CwSnapshot } | null = null;
      for (let step = 1; ; step++) {
        let current: CwSnapshot = { ...withGoalGate(snapshot, goal), session: { name, key, messages } };
        let plan = planTurn(current, prompt, options.entrypoint);
        if (plan.status === 'blocked' && plan.compaction) {
          // Summarised and saved before the request goes out; what no longer fits after it is refused below.
          const compacted = await compactHistory(current, sideOptions(options));
          if (compacted !== null) {
            messages = compacted.messages;
            goal = compacted.goal;
            options.onCompaction?.({ summarised: compacted.summarised, kept: compacted.kept });
            current = { ...withGoalGate(snapshot, goal), session: { name, key, messages } };
            plan = planTurn(current, prompt, options.entrypoint);
          }
        }
        if (plan.status === 'blocked') throw plan.error;
        if (first === null) {
          first = { plan, snapshot: current };
          if (plan.prepared.projection.warning !== null) options.onWarning?.(plan.prepared.projection.warning);
        }
        options.onStep?.(step, plan.input);
        const { reply, finishReason } = await exchange(current, plan, options);
        const bodySha256 = plan.prepared.canonical.sha256;
        const assistant: ConversationMessage = {
          role: 'assistant',
          content: reply.text,
          ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls } : {}),
          ...(reply.usage === null ? {} : { usage: reply.usage }),
          ...(reply.replay.length === 0 ? {} : { replay: { dialect: plan.prepared.dialect, items: reply.replay } }),
          body_sha256: bodySha256,
        };
        // The user message as this route was sent it: mentioned files inline, images it took.
        const user = plan.prepared.userMessage;
        const added: ConversationMessage[] = user === null ? [assistant] : [user, assistant];
        messages = await save(options.home, loaded.session, messages, added, reply, plan.prepared.route.row.route_id);
        // The pending skill wrapped this prompt and the turn is saved: it is used up (docs/skills.md).
        if (user !== null && typeof prompt === 'object' && prompt.skill !== null) {
          await clearPendingSkill(options.home, key, prompt.skill);
        }
        // The route auto routing chose lands with the turn it routed (docs/auto-routing.md).
        if (user !== null && choice !== null) await writeAutoRouteChoice(options.home, key, choice);
        // Every completed request counts against the goal, so the next step meets the gate as it now stands.
        goal = await recordGoalUsage(options.home, key, plan, reply);
        const done = (stopped: LoopStop, toolResults: readonly ToolCallRecord[] = []): SentTurn => {
          steps.push({ input: plan.input, bodySha256, reply, finishReason, toolResults });
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
        if (loop === undefined || loop.posture === 'never') return done('tool-calls-returned');
        const controller = new AbortController();
        const onAbort = (): void => controller.abort();
        options.signal?.addEventListener('abort', onAbort, { once: true });
        let records: ToolCallRecord[];
        try {
          records = await runToolCalls(reply.toolCalls, {
            registry: snapshot.registry,
            extraTools: extraToolsFor(loop, plan),
            posture: loop.posture,
            rules: loop.rules,
            context: { workspace: loop.workspace, signal: controller.signal, env: toolEnv, limits: loop.limits },
            ...(loop.ask ? { ask: loop.ask } : {}),
            alwaysAllowed,
            ...(loop.onToolStart ? { onStart: loop.onToolStart } : {}),
            ...(loop.onToolEnd ? { onEnd: loop.onToolEnd } : {}),
          });
        } finally {
          options.signal?.removeEventListener('abort', onAbort);
        }
        const results: ConversationMessage[] = records.map((record) => ({
          role: 'tool',
          tool_call_id: record.call.id,
          name: record.call.name,
          content: record.content,
          status: record.status,
          ...(record.images ? { images: record.images } : {}),
        }));
        messages = await save(options.home, loaded.session, messages, results, null);
        if (options.signal?.aborted) return done('interrupted', records);
        if (step >= loop.maxSteps) return done('step-limit', records);
        steps.push({ input: plan.input, bodySha256, reply, finishReason, toolResults: records });
        prompt = undefined;
      }
    },
    options,
  );
}

/**
 * Under auto routing, a new prompt is routed before it is planned: the goal and a prompt that cannot
 * be resolved stop the turn first, so the classifier is never asked for a turn that cannot go.
 */
async function routeAutomatically(
  snapshot: CwSnapshot,
  prompt: TurnPrompt | undefined,
  options: SendTurnOptions,
): Promise<{ snapshot: CwSnapshot; choice: AutoRouteChoice | null }> {
  if (!snapshot.pending.autoRouting) return { snapshot, choice: null };
  // A continuation stays on the route chosen for the prompt that started the loop, as planTurn plans it.
  if (prompt === undefined)
    return {
      snapshot: snapshot.autoRouteChoice ? onRoute(snapshot, snapshot.autoRouteChoice) : snapshot,
      choice: null,
    };
  const unrouted = planTurn(
    { ...snapshot, pending: { ...snapshot.pending, autoRouting: false } },
    prompt,
    options.entrypoint,
  );
  if (
    unrouted.status === 'blocked' &&
    (unrouted.reason.startsWith('goal-') || unrouted.reason === 'prompt-resolution-failed')
  )
    throw unrouted.error;
  const text = typeof prompt === 'string' ? prompt : prompt.text;
  const chosen = await classifyRoute(snapshot, text, sideOptions(options));
  options.onAutoRoute?.(chosen.route);
  return {
    snapshot: withGoalGate(onRoute(snapshot, chosen.route), chosen.goal),
    choice: { version: 1, route: chosen.route, classifier_route: chosen.classifierRoute },
  };
}

/** How a side request of this send (a compaction summary, a classification) is sent: the send's own settings. */
function sideOptions(options: SendTurnOptions): SideRequestOptions {
  return {
    home: options.home,
    entrypoint: options.entrypoint,
    env: options.env,
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  };
}

/** The snapshot with the goal gate as it now stands. */
function withGoalGate(snapshot: CwSnapshot, goal: CwSnapshot['pending']['goal']): CwSnapshot {
  return goal === snapshot.pending.goal ? snapshot : { ...snapshot, pending: { ...snapshot.pending, goal } };
}

/**
 * Runs the configured message_submit hooks on a new prompt (docs/hooks.md) and returns the prompt they
 * left, with the hooks no longer pending. A goal that stops the turn stops it first: hooks never run
 * for a turn that cannot go. A hook that blocks or fails throws; nothing has been sent or saved.
 */
async function runSubmitHooks(
  snapshot: CwSnapshot,
  options: SendTurnOptions,
): Promise<{ snapshot: CwSnapshot; prompt: string | undefined }> {
  const hooks = snapshot.config.hooks.message_submit;
  if (options.prompt === undefined || hooks.length === 0 || snapshot.pending.messageSubmitHooks === 0)
    return { snapshot, prompt: options.prompt };
  const before = planTurn(snapshot, options.prompt, options.entrypoint);
  if (before.status === 'blocked' && before.reason.startsWith('goal-')) throw before.error;
  const prompt = await runMessageSubmitHooks(
    hooks,
    { prompt: options.prompt, session: snapshot.session.name },
    {
      cwd: snapshot.workingContext?.cwd ?? process.cwd(),
      // The same environment tools get: no route's API key, nothing named like a credential.
      env: toolEnvironment(options.env, snapshot.registry.rows, snapshot.config),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  return { snapshot: { ...snapshot, pending: { ...snapshot.pending, messageSubmitHooks: 0 } }, prompt };
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
    scrub: [options.prompt, prepared.userMessage?.content].filter((text): text is string => text !== undefined),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onText ? { onText: options.onText } : {}),
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
): Promise<readonly ConversationMessage[]> {
  try {
    await writeTurn(home, session.key, history.length, added, route);
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

/**
 * The tools this step runs outside the registry: the MCP servers' tools, and `search_tools` over the
 * step's own deferred tools when its request carried it.
 */
function extraToolsFor(loop: AgentLoopOptions, plan: ReadyTurn): ReadonlyMap<string, ToolImplementation> {
  const tools = new Map((loop.extraTools ?? []).map((tool) => [tool.name, tool] as const));
  if (plan.prepared.searchable) tools.set(SEARCH_TOOLS_NAME, searchToolsImplementation(plan.prepared.deferredTools));
  return tools;
}
