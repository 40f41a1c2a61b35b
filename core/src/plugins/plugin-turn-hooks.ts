import type { SessionFacts } from '../manifest/manifest-schema.js';
import type { BlockedTurn } from '../plan-turn.js';
import { safeErrorText, safeIdentifier } from '../redaction/index.js';
import type { CwSnapshot } from '../snapshot/snapshot.js';
import type { ToolImplementation } from '../tools/tool-contract.js';
import type {
  CoreGateContext as GateContext,
  CoreRequestContext as RequestContext,
  CoreResolveContext as ResolveContext,
  CoreResolved as Resolved,
  CoreSavedContext as SavedContext,
  CoreSendResources as SendResources,
  CoreStepToolsContext as StepToolsContext,
  CoreTransformContext as TransformContext,
  CoreTurnDraft as TurnDraft,
  CoreTurnHooks as TurnHooks,
} from '../turn/core-turn-types.js';
import type { TurnNotice } from '../turn/notice-kinds.js';
import { PLUGIN_STAGE } from '../turn/turn-stages.js';
import type { DueTransform, GateStop, LoadStateContext, PrepareContext, SendSettings } from '../turn/turn-hooks.js';

/** Tap options as a plugin gives them: the name is always the plugin's own; `stage` orders the tap. */
export type PluginTurnTapOptions = string | { readonly name?: string; readonly stage?: number };

/** A synchronous turn hook as a plugin taps it. */
export interface PluginSyncTap<Args extends unknown[], Result> {
  tap(options: PluginTurnTapOptions, fn: (...args: Args) => Result): void;
}

/** An asynchronous turn hook as a plugin taps it. */
export interface PluginAsyncTap<Args extends unknown[], Result> {
  tapPromise(options: PluginTurnTapOptions, fn: (...args: Args) => Promise<Result>): void;
}

/** What a plugin's gate answers to stop a turn: its reason in its own words (redacted before anyone sees it). */
export interface PluginGateStop {
  /**
   * A reason the plugin registered with `api.addGateReason`, by its label or its full
   * `<package>:<label>` name. Without one, or with one the plugin did not register, the turn stops
   * with `blocked-by-plugin-gate` and the plugin's name in the detail.
   */
  readonly reason?: string;
  readonly detail: string;
  /** What a person can do about it. */
  readonly remedy?: string;
}

/** The turn hooks a plugin may tap, with the payloads the built-in features see. */
export interface PluginTurnHooks {
  /**
   * Stop a turn; runs in preview too, so it must only read the snapshot. The manifest shows the
   * plugin's registered reason and detail, or `blocked-by-plugin-gate` with the plugin's name.
   */
  readonly gate: PluginSyncTap<[GateContext], PluginGateStop | undefined>;
  /** Refine the prompt and snapshot before planning; in preview mode only read. */
  readonly prepareTurn: PluginAsyncTap<[TurnDraft, PrepareContext], TurnDraft>;
  /** Transforms a send would apply to a measured request. */
  readonly transformsDue: PluginSyncTap<[DueTransform[], TransformContext], DueTransform[]>;
  /** Resolve a resolvable block under the session lock. */
  readonly resolveBlock: PluginAsyncTap<[BlockedTurn, ResolveContext], Resolved | undefined>;
  /** Open what a send holds for its steps. */
  readonly openSend: PluginAsyncTap<[SendResources, PrepareContext], SendResources>;
  /** Release what openSend opened. */
  readonly closeSend: PluginAsyncTap<[SendResources, PrepareContext], void>;
  /** Tools a step runs beside the registry's. */
  readonly stepTools: PluginSyncTap<
    [Map<string, ToolImplementation>, StepToolsContext],
    Map<string, ToolImplementation>
  >;
  /** After every completed request (usage accounting); returns the snapshot the next request meets. */
  readonly afterRequest: PluginAsyncTap<[CwSnapshot, RequestContext], CwSnapshot>;
  /** After a step was saved, under the session lock. */
  readonly afterSave: PluginAsyncTap<[SavedContext], void>;
  /** Add the plugin's session state to the snapshot (`features[pluginName]`). */
  readonly loadState: PluginAsyncTap<[CwSnapshot, LoadStateContext], CwSnapshot>;
  /** The manifest's session facts. */
  readonly describeSession: PluginSyncTap<[SessionFacts, CwSnapshot], SessionFacts>;
}

/**
 * The turn hooks handed to one plugin. Every tap carries the plugin's name; a gate or prepare tap
 * that names no stage runs after every built-in feature's, so a plugin never reorders the built-in
 * gates by accident; a withdrawn plugin's taps pass their input through unchanged.
 */
export function pluginTurnHooks(turn: TurnHooks, plugin: string, withdrawn: () => boolean): PluginTurnHooks {
  const own = (name: unknown, registeredBy: (full: string) => string | undefined): string | null => {
    if (typeof name !== 'string') return null;
    const full = name.includes(':') ? name : `${plugin}:${name}`;
    return registeredBy(full) === plugin ? full : null;
  };
  const gateStop = (stop: PluginGateStop): GateStop => {
    const remedy = typeof stop.remedy === 'string' ? { remedy: safeErrorText(stop.remedy) } : {};
    const reason = own(stop.reason, (full) => turn.reasons.get(full)?.registeredBy);
    // A registered reason names the plugin already; the generic one needs the name in the detail.
    return reason === null
      ? {
          reason: 'blocked-by-plugin-gate',
          detail: safeErrorText(`${safeIdentifier(plugin)}: ${String(stop.detail)}`),
          ...remedy,
        }
      : { reason, detail: safeErrorText(String(stop.detail)), ...remedy };
  };
  // A plugin's notices are of kinds it registered, with the fields it declared; its words are redacted
  // as they are sent. Anything else is a broken plugin, and fails the send closed.
  const notifying = <C extends SendSettings>(context: C): C => ({
    ...context,
    notify: (notice: TurnNotice) => {
      const kind = own(notice?.kind, (full) => turn.notices.get(full)?.registeredBy);
      if (kind === null)
        throw new Error(
          `plugin ${safeIdentifier(plugin)} sent a notice of a kind it did not register with addNoticeKind`,
        );
      const fields = Object.fromEntries(
        Object.entries(notice)
          .filter(([name]) => name !== 'kind')
          .map(([name, value]) => [name, typeof value === 'string' ? safeErrorText(value) : value]),
      );
      const checked: TurnNotice = { ...fields, kind };
      const defect = turn.notices.defect(checked);
      if (defect !== null) throw new Error(`plugin ${safeIdentifier(plugin)}: ${defect}`);
      context.notify?.(checked);
    },
  });
  const named = (options: PluginTurnTapOptions, defaultStage?: number) => {
    const stage = typeof options === 'object' ? options.stage : undefined;
    const chosen = stage ?? defaultStage;
    return chosen === undefined ? { name: plugin } : { name: plugin, stage: chosen };
  };
  return {
    gate: {
      tap: (options, fn) =>
        turn.gate.tap(named(options, PLUGIN_STAGE), (context): GateStop | undefined => {
          if (withdrawn()) return undefined;
          const stop = fn(context);
          if (stop === undefined || stop === null) return undefined;
          // A plugin names its own reason, never a built-in one, and its words are redacted like any error.
          return gateStop(stop);
        }),
    },
    prepareTurn: {
      tapPromise: (options, fn) =>
        turn.prepareTurn.tapPromise(named(options, PLUGIN_STAGE), async (draft, context) =>
          withdrawn() ? draft : fn(draft, notifying(context)),
        ),
    },
    transformsDue: {
      tap: (options, fn) =>
        turn.transformsDue.tap(named(options), (due, context) => (withdrawn() ? due : fn(due, context))),
    },
    resolveBlock: {
      tapPromise: (options, fn) =>
        turn.resolveBlock.tapPromise(named(options), async (blocked, context) =>
          withdrawn() ? undefined : fn(blocked, notifying(context)),
        ),
    },
    openSend: {
      tapPromise: (options, fn) =>
        turn.openSend.tapPromise(named(options), async (resources, context) =>
          withdrawn() ? resources : fn(resources, notifying(context)),
        ),
    },
    closeSend: {
      tapPromise: (options, fn) =>
        turn.closeSend.tapPromise(named(options), async (resources, context) =>
          withdrawn() ? undefined : fn(resources, notifying(context)),
        ),
    },
    stepTools: {
      tap: (options, fn) =>
        turn.stepTools.tap(named(options), (tools, context) => (withdrawn() ? tools : fn(tools, context))),
    },
    afterRequest: {
      tapPromise: (options, fn) =>
        turn.afterRequest.tapPromise(named(options), async (snapshot, context) =>
          withdrawn() ? snapshot : fn(snapshot, context),
        ),
    },
    afterSave: {
      tapPromise: (options, fn) =>
        turn.afterSave.tapPromise(named(options), async (context) => (withdrawn() ? undefined : fn(context))),
    },
    loadState: {
      tapPromise: (options, fn) =>
        turn.loadState.tapPromise(named(options), async (snapshot, context) =>
          withdrawn() ? snapshot : fn(snapshot, context),
        ),
    },
    describeSession: {
      tap: (options, fn) =>
        turn.describeSession.tap(named(options), (facts, snapshot) => (withdrawn() ? facts : fn(facts, snapshot))),
    },
  };
}
