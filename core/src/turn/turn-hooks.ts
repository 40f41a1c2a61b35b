import {
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  SyncBailHook,
  SyncWaterfallHook,
} from 'tapable';
import type { Entrypoint } from '../body/wire-body.js';
import type { SessionFacts } from '../manifest/manifest-schema.js';
import type { MeasuredBody } from '../plan/measure-body.js';
import type { BlockedTurn, ReadyTurn, TurnInput } from '../plan-turn.js';
import type { ConversationMessage } from '../prompt/conversation.js';
import type { AssistantReply } from '../reply/assemble-reply.js';
import type { CwSnapshot } from '../snapshot/snapshot.js';
import type { TurnPrompt } from '../submit/user-message.js';
import type { ToolImplementation } from '../tools/tool-contract.js';
import type { RetryNotice } from '../transport/send-prepared-request.js';
import type { UnavailableReason } from '../manifest/unavailable-reason.js';

// The turn's extension points, owned by the core and documented in docs/architecture.md ("The turn's
// hooks"). Every turn feature — the goal, auto routing, submit hooks, prompt resolution, compaction,
// MCP, tool deferral — is a plugin on these hooks (core/src/features/), and a third-party plugin
// taps the same ones through `api.hooks.turn`. The loop (send-turn.ts) and the plan (plan-turn.ts)
// call the hooks and know no feature.

/** Where a gate is asked: planning a turn (preview and send), or a send before it prepares the prompt. */
export type GatePhase = 'plan' | 'before-prepare';

/** What a gate sees: the snapshot as it stands, what starts the request, and the phase. */
export interface GateContext {
  readonly snapshot: CwSnapshot;
  /** A new prompt, a loop continuation, or nothing to send (no prompt and no continuation). */
  readonly input: TurnInput | null;
  /**
   * `before-prepare`: a send asks before it runs submit hooks, resolves the prompt and classifies;
   * a gate whose stop those steps would clear stays silent then.
   */
  readonly phase: GatePhase;
}

/** A gate's answer: the turn stops, for a typed reason the manifest shows. */
export interface GateStop {
  readonly reason: UnavailableReason;
  /** Already redacted; null when the reason says it all. */
  readonly detail: string | null;
  /** What a person can do about it, printed after the reason by cw send. */
  readonly remedy?: string;
}

/** The turn a send is preparing: the snapshot and the prompt as the features left them. */
export interface TurnDraft {
  readonly snapshot: CwSnapshot;
  readonly prompt: TurnPrompt | undefined;
}

/** How the turn is being prepared: a preview only reads; a send may run programs and side requests. */
export interface PrepareContext extends SendSettings {
  readonly mode: 'preview' | 'send';
}

/** The settings every request of one send shares, side requests included. */
export interface SendSettings {
  readonly home: string;
  readonly entrypoint: Entrypoint;
  readonly env: NodeJS.ProcessEnv;
  readonly maxRetries?: number;
  readonly signal?: AbortSignal;
  readonly onRetry?: (notice: RetryNotice) => void;
  /** How long one tool call may run (an MCP server's call among them). */
  readonly toolTimeoutMs?: number;
  /** Where features report what they did (an auto-route choice, a compaction), for the host to show. */
  readonly notify?: (notice: TurnNotice) => void;
  /**
   * Present when the host runs several turns in one process (an interactive session): a feature may
   * keep what it opened here for the next turn instead of closing it on `closeSend`.
   */
  readonly scope?: SessionScope;
}

/**
 * What a host keeps open across the turns of one session (docs/architecture.md, "The turn's hooks"):
 * each feature keeps one value under its own key, and `close` releases them all when the session ends.
 */
export interface SessionScope {
  /** The value kept under `key`, made by `make` the first time. */
  keep<T>(key: string, make: () => T): T;
  /** The value kept under `key`, if any: for a host that shows a feature's state. */
  peek<T>(key: string): T | undefined;
  /** Registers a release that `close` runs; releases run in reverse order of registration. */
  onClose(release: () => Promise<void>): void;
  /** Runs every release once; later calls do nothing. */
  close(): Promise<void>;
}

/** Something a feature did on its own during a turn, reported to the host as an event. */
export type TurnNotice =
  | { readonly kind: 'auto-route'; readonly route: string }
  | { readonly kind: 'compaction'; readonly summarised: number; readonly kept: number }
  | { readonly kind: 'warning'; readonly text: string }
  /** Another send holds the session; this one waits its turn. */
  | { readonly kind: 'session-wait' }
  /** A lock left by a cw process that is gone was removed. */
  | { readonly kind: 'stale-lock-broken' };

/** What a send holds while it runs: tools from outside the registry, and how to release them. */
export interface SendResources {
  readonly snapshot: CwSnapshot;
  /** Executors of tools that are not in the plugin registry (an MCP server's). */
  readonly tools: readonly ToolImplementation[];
}

/** A blocked plan a feature may resolve under the session lock; `snapshot` is the session as stored. */
export interface ResolveContext extends SendSettings {
  readonly snapshot: CwSnapshot;
}

/** What resolving a block changed: the snapshot to plan again from. */
export interface Resolved {
  readonly snapshot: CwSnapshot;
}

/** What a step may run, beside the registry's tools. */
export interface StepToolsContext {
  readonly snapshot: CwSnapshot;
  readonly plan: ReadyTurn;
  readonly resources: SendResources;
}

/** One completed request, the turn's own or a side request (a classification, a summary). */
export interface RequestContext {
  readonly home: string;
  readonly snapshot: CwSnapshot;
  readonly plan: { readonly prepared: ReadyTurn['prepared']; readonly measured: MeasuredBody | null };
  readonly reply: AssistantReply;
  readonly side: boolean;
}

/** One step whose messages were just saved, under the session lock. */
export interface SavedContext {
  readonly home: string;
  readonly snapshot: CwSnapshot;
  readonly plan: ReadyTurn;
  /** The user message saved with this step; null for a continuation. */
  readonly userMessage: ConversationMessage | null;
  /** The prompt as prepared (a skill-wrapped prompt names its skill). */
  readonly prompt: TurnPrompt | undefined;
}

/** Where per-feature session state is read from. */
export interface LoadStateContext {
  readonly home: string;
  /** True for a session with no files yet: there is no state to read. */
  readonly fresh: boolean;
  /** A send under its session lock waits out another process's short update; a snapshot never waits. */
  readonly waiting: boolean;
}

/** A measured request a send would still transform before sending (auto-compaction). */
export interface TransformContext {
  readonly snapshot: CwSnapshot;
  readonly measured: MeasuredBody;
}

/** A transform a send would apply before sending: its words for the manifest, and whether `resolveBlock` does it. */
export interface DueTransform {
  readonly words: string;
  readonly resolvable: boolean;
}

/** The turn lifecycle hooks of one registry. */
export class TurnHooks {
  /**
   * Sync bail, by stage: the first gate that answers stops the turn. It runs wherever a turn is
   * planned, preview included, so a gate reads only the snapshot and never does I/O.
   */
  readonly gate = new SyncBailHook<[GateContext], GateStop | undefined>(['context']);
  /**
   * Async waterfall, by stage, over the prompt and snapshot: submit hooks, prompt resolution,
   * classification. Stages follow the gates' (docs/architecture.md), so preview reports the first
   * pending step a send would meet. In preview mode a tap only reads.
   */
  readonly prepareTurn = new AsyncSeriesWaterfallHook<[TurnDraft, PrepareContext]>(['draft', 'context']);
  /** Sync waterfall: the transforms a send would apply to a measured request; preview reports them. */
  readonly transformsDue = new SyncWaterfallHook<[DueTransform[], TransformContext]>(['due', 'context']);
  /** Async bail, under the session lock: the first tap that resolves a resolvable block answers. */
  readonly resolveBlock = new AsyncSeriesBailHook<[BlockedTurn, ResolveContext], Resolved | undefined>([
    'blocked',
    'context',
  ]);
  /** Async waterfall: resources a send holds open for its steps (MCP servers), in order. */
  readonly openSend = new AsyncSeriesWaterfallHook<[SendResources, PrepareContext]>(['resources', 'context']);
  /** Async series: releases what `openSend` opened; runs once however the send ended. */
  readonly closeSend = new AsyncSeriesHook<[SendResources, PrepareContext]>(['resources', 'context']);
  /** Sync waterfall: the tools a step runs beside the registry's, by name. */
  readonly stepTools = new SyncWaterfallHook<[Map<string, ToolImplementation>, StepToolsContext]>(['tools', 'context']);
  /** Async waterfall over the snapshot after every completed request (usage accounting). */
  readonly afterRequest = new AsyncSeriesWaterfallHook<[CwSnapshot, RequestContext]>(['snapshot', 'context']);
  /** Async series: after a step's messages were saved, still under the lock. */
  readonly afterSave = new AsyncSeriesHook<[SavedContext]>(['context']);
  /** Async waterfall over the snapshot: each feature adds its session state (`features`). */
  readonly loadState = new AsyncSeriesWaterfallHook<[CwSnapshot, LoadStateContext]>(['snapshot', 'context']);
  /** Sync waterfall: the manifest's session facts, which features fill with their state. */
  readonly describeSession = new SyncWaterfallHook<[SessionFacts, CwSnapshot]>(['facts', 'snapshot']);
}

/** The stages of the built-in features on `gate` and `prepareTurn`: one order for preview and send. */
export const TURN_STAGES = {
  goal: 100,
  submitHooks: 200,
  promptResolution: 300,
  autoRoute: 400,
  /** Where a plugin's gate or prepare tap goes when it names no stage: after every built-in one. */
  plugin: 1000,
} as const;
