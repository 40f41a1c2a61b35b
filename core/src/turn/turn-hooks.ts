import {
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  SyncBailHook,
  SyncWaterfallHook,
} from 'tapable';
import type { Entrypoint } from '../body/wire-body.js';
import type { CommandSandbox } from '../sandbox/command-sandbox.js';
import type { TurnInput } from '../plan/turn-input.js';
import type { ConversationMessage } from '../prompt/conversation.js';
import type { AssistantReply } from '../reply/assemble-reply.js';
import type { TurnPrompt } from '../prompt/user-message.js';
import type { ToolImplementation } from '../tools/tool-contract.js';
import type { RetryNotice } from '../transport/retry-notice.js';
import { CORE_REASONS, type UnavailableReason } from '../plan/unavailable-reason.js';
import { safeIdentifier } from '../redaction/safe-label.js';
import { CORE_NOTICE_KINDS } from './core-notice-kinds.js';
import { NoticeKindTable, type TurnNotice } from './notice-kinds.js';
import { ReasonTable } from './reason-table.js';
import { TurnStageTable } from './turn-stages.js';

export type { TurnNotice };

// The turn's extension points, owned by the core and documented in docs/architecture.md ("The turn's
// hooks"). Every turn feature — the goal, auto routing, submit hooks, prompt resolution, compaction,
// MCP, tool deferral — is a plugin on these hooks (core/src/features/), and a third-party plugin
// taps the same ones through `api.hooks.turn`. The loop (send-turn.ts) and the plan (plan-turn.ts)
// call the hooks and know no feature.

/**
 * The core's types the hooks carry: the snapshot, a blocked and a ready plan, a measured body and
 * the manifest's session facts. The hooks are declared over them so that this module imports none of
 * them (they all lead back to the registry that holds the hooks); turn/core-turn-types.ts binds them.
 */
export interface TurnTypes {
  readonly snapshot: unknown;
  readonly blocked: unknown;
  readonly ready: unknown;
  readonly measured: unknown;
  readonly facts: unknown;
}

/** Where a gate is asked: planning a turn (preview and send), or a send before it prepares the prompt. */
export type GatePhase = 'plan' | 'before-prepare';

/** What a gate sees: the snapshot as it stands, what starts the request, and the phase. */
export interface GateContext<T extends TurnTypes = TurnTypes> {
  readonly snapshot: T['snapshot'];
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
export interface TurnDraft<T extends TurnTypes = TurnTypes> {
  readonly snapshot: T['snapshot'];
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
  /** Where programs a feature starts run (submit hooks, sandboxed MCP servers; docs/security.md). */
  readonly sandbox?: CommandSandbox;
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

/** A request the plan has prepared, or tried to: what it asks before it measures the body. */
export interface CheckContext<T extends TurnTypes = TurnTypes> {
  readonly snapshot: T['snapshot'];
  /** The prompt as prepared; undefined for a continuation. */
  readonly prompt: TurnPrompt | undefined;
}

/** What a send holds while it runs: tools from outside the registry, and how to release them. */
export interface SendResources<T extends TurnTypes = TurnTypes> {
  readonly snapshot: T['snapshot'];
  /** Executors of tools that are not in the plugin registry (an MCP server's). */
  readonly tools: readonly ToolImplementation[];
}

/** A blocked plan a feature may resolve under the session lock; `snapshot` is the session as stored. */
export interface ResolveContext<T extends TurnTypes = TurnTypes> extends SendSettings {
  readonly snapshot: T['snapshot'];
}

/** What resolving a block changed: the snapshot to plan again from. */
export interface Resolved<T extends TurnTypes = TurnTypes> {
  readonly snapshot: T['snapshot'];
}

/** What a step may run, beside the registry's tools. */
export interface StepToolsContext<T extends TurnTypes = TurnTypes> {
  readonly snapshot: T['snapshot'];
  readonly plan: T['ready'];
  readonly resources: SendResources<T>;
}

/** One completed request, the turn's own or a side request (a classification, a summary). */
export interface RequestContext<T extends TurnTypes = TurnTypes> {
  readonly home: string;
  readonly snapshot: T['snapshot'];
  readonly plan: T['ready'];
  readonly reply: AssistantReply;
  readonly side: boolean;
}

/** One step whose messages were just saved, under the session lock. */
export interface SavedContext<T extends TurnTypes = TurnTypes> {
  readonly home: string;
  readonly snapshot: T['snapshot'];
  readonly plan: T['ready'];
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
export interface TransformContext<T extends TurnTypes = TurnTypes> {
  readonly snapshot: T['snapshot'];
  readonly measured: T['measured'];
}

/** A transform a send would apply before sending: its words for the manifest, and whether `resolveBlock` does it. */
export interface DueTransform {
  readonly words: string;
  readonly resolvable: boolean;
}

/** The turn lifecycle hooks of one registry. */
export class TurnHooks<T extends TurnTypes = TurnTypes> {
  /**
   * Sync bail, by stage: the first gate that answers stops the turn. It runs wherever a turn is
   * planned, preview included, so a gate reads only the snapshot and never does I/O.
   */
  readonly gate = new SyncBailHook<[GateContext<T>], GateStop | undefined>(['context']);
  /**
   * Async waterfall, by stage, over the prompt and snapshot: submit hooks, prompt resolution,
   * classification. Stages follow the gates' (docs/architecture.md), so preview reports the first
   * pending step a send would meet. In preview mode a tap only reads.
   */
  readonly prepareTurn = new AsyncSeriesWaterfallHook<[TurnDraft<T>, PrepareContext]>(['draft', 'context']);
  /**
   * Sync bail, once the request is prepared (or its preparation failed after the tools were
   * projected) and before its body is measured: what the request depends on that is not known
   * offline (an MCP server's tools with no snapshot). The stop's reason names, through its
   * registration, whether it leaves the tool surface unknown besides the body.
   */
  readonly checkRequest = new SyncBailHook<[CheckContext<T>], GateStop | undefined>(['context']);
  /** Sync waterfall: the transforms a send would apply to a measured request; preview reports them. */
  readonly transformsDue = new SyncWaterfallHook<[DueTransform[], TransformContext<T>]>(['due', 'context']);
  /** Async bail, under the session lock: the first tap that resolves a resolvable block answers. */
  readonly resolveBlock = new AsyncSeriesBailHook<[T['blocked'], ResolveContext<T>], Resolved<T> | undefined>([
    'blocked',
    'context',
  ]);
  /** Async waterfall: resources a send holds open for its steps (MCP servers), in order. */
  readonly openSend = new AsyncSeriesWaterfallHook<[SendResources<T>, PrepareContext]>(['resources', 'context']);
  /** Async series: releases what `openSend` opened; runs once however the send ended. */
  readonly closeSend = new AsyncSeriesHook<[SendResources<T>, PrepareContext]>(['resources', 'context']);
  /** Sync waterfall: the tools a step runs beside the registry's, by name. */
  readonly stepTools = new SyncWaterfallHook<[Map<string, ToolImplementation>, StepToolsContext<T>]>([
    'tools',
    'context',
  ]);
  /** Async waterfall over the snapshot after every completed request (usage accounting). */
  readonly afterRequest = new AsyncSeriesWaterfallHook<[T['snapshot'], RequestContext<T>]>(['snapshot', 'context']);
  /** Async series: after a step's messages were saved, still under the lock. */
  readonly afterSave = new AsyncSeriesHook<[SavedContext<T>]>(['context']);
  /** Async waterfall over the snapshot: each feature adds its session state (`features`). */
  readonly loadState = new AsyncSeriesWaterfallHook<[T['snapshot'], LoadStateContext]>(['snapshot', 'context']);
  /** Sync waterfall: the manifest's session facts, which features fill with their state. */
  readonly describeSession = new SyncWaterfallHook<[T['facts'], T['snapshot']]>(['facts', 'snapshot']);
  /** The named stages on `gate` and `prepareTurn`: each feature registers its own. */
  readonly stages = new TurnStageTable();
  /** Why a turn or a section may be stopped: the core's reasons, then the ones features and plugins register. */
  readonly reasons = new ReasonTable(CORE_REASONS);
  /** What features may report during a turn: the core's kinds, then the ones features and plugins register. */
  readonly notices = new NoticeKindTable(safeIdentifier, CORE_NOTICE_KINDS);
}

export { TURN_STAGES } from './turn-stages.js';
