import type { AskAnswer, AskedCall, ToolCallRecord } from '../agent/run-tool-calls.js';
import type { Cost, CostTotal } from '../cost/step-cost.js';
import type { RequestManifest } from '../manifest/manifest-schema.js';
import type { TurnInput } from '../plan-turn.js';
import type { ToolCall } from '../prompt/conversation.js';
import type { TurnUsage } from '../reply/turn-events.js';
import type { ToolProjectionWarning } from '../tools/tool-projection-types.js';
import type { RetryNotice } from '../transport/send-prepared-request.js';
import type { TurnNotice } from '../turn/turn-hooks.js';

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

/** Usage summed over a turn's requests; a step whose provider reported none adds nothing and is counted. */
export interface TotalUsage extends TurnUsage {
  /** Steps whose provider reported no usage: the totals leave them out. */
  readonly steps_without_usage: number;
}

/** One event of `agent.run`: everything a host shows of a turn, in the order it happens (docs/embedding.md). */
export type AgentEvent =
  /**
   * The turn began on this session: its name as people see it, and its key (`<workspace key>/<name>`),
   * which names it across workspaces and holds no path (docs/cli.md, "Sessions").
   */
  | { readonly type: 'turn-start'; readonly session: string; readonly session_id: string }
  /**
   * A feature did something on its own (an auto-route choice, a compaction, a server left out), or
   * the session lock made the turn wait (`session-wait`) or found a dead process's lock (`stale-lock-broken`).
   */
  | { readonly type: 'notice'; readonly notice: TurnNotice }
  /** Tools the route could not take were left off the first request (the same value preview shows). */
  | { readonly type: 'projection-warning'; readonly warning: ToolProjectionWarning }
  /** A request is about to go out; `body_sha256` is what preview showed for it. */
  | { readonly type: 'step-start'; readonly step: number; readonly input: TurnInput; readonly body_sha256: string }
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'reasoning-delta'; readonly text: string }
  /** A failed attempt (of the turn's request or a feature's side request) is retried after a delay. */
  | { readonly type: 'retry'; readonly retry: RetryNotice }
  /** A call that may run (allowed, or approved when asked) starts; a refused call has only its `tool-result`. */
  | { readonly type: 'tool-call'; readonly call: ToolCall; readonly summary: string }
  /**
   * The posture asks a person about a call. Answer with `respond` (or the run's `onApproval`
   * callback, which then answers instead): until answered, the loop waits. The loop emits it only
   * when its reader said it answers (docs/agent-loop.md, "Approval postures").
   */
  | {
      readonly type: 'approval-request';
      readonly call: AskedCall;
      readonly respond: (answer: AskAnswer) => void;
    }
  /** A call's outcome, with its status and what the model reads. */
  | { readonly type: 'tool-result'; readonly record: ToolCallRecord }
  /** A request's reply is complete and saved; `step` counts from 1, as its `step-start` did. */
  | {
      readonly type: 'step-finish';
      readonly step: number;
      readonly body_sha256: string;
      /** SHA-256 of the exact bytes the request went out as, so a script can check each request. */
      readonly body_wire_sha256: string;
      readonly finish_reason: string;
      readonly usage: TurnUsage | null;
      /** What this request cost, or null with a typed reason (docs/cli.md, "Cost"). */
      readonly cost: Cost;
      readonly tool_results: number;
    }
  /** The turn ended; `usage` sums every step's. */
  | {
      readonly type: 'turn-finish';
      readonly stop: LoopStop;
      readonly steps: number;
      readonly usage: TotalUsage;
      /** The steps' costs added up; null with the first unknown step's reason when any is unknown. */
      readonly cost: Cost;
      /** The session's running total, this turn included: known costs, and steps whose cost is unknown. */
      readonly session_cost: CostTotal;
      readonly session: string;
      readonly manifest: RequestManifest;
    }
  /** The turn failed; nothing after it. The error is typed (its `safeMessage` is printable). */
  | { readonly type: 'error'; readonly error: unknown };

/** The event types, in the order a turn can emit them. */
export type AgentEventType = AgentEvent['type'];
