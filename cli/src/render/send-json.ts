import type { AssistantReply, Cost, CostTotal, SentTurn, ToolCallStatus, TotalUsage } from '@cw/core';
import type { ToolProjectionWarning } from '@cw/core/plugin';
import { type LineRedaction, safeSessionKey, type TurnTotals } from './stream-json.js';

/** The `cw send --json` document (docs/agent-loop.md). */
export interface SendJsonDocument {
  readonly reply: { text: string; tool_calls: AssistantReply['toolCalls']; usage: AssistantReply['usage'] };
  readonly stopped: SentTurn['stopped'];
  /** The session the turn went to: its name, and its key `<workspace key>/<name>`. */
  readonly session: string;
  readonly session_id: string;
  /** Usage summed over every step (reply.usage is the last step's alone). */
  readonly usage: TotalUsage;
  /** The turn's cost in USD, or null with a typed reason (docs/cli.md, "Cost"). */
  readonly cost: Cost;
  /** The session's running total, this turn included, and how many of its steps have no known cost. */
  readonly session_cost: CostTotal;
  /** The first request's hashes (steps[] has every request's). */
  readonly sent: { body_sha256: string; body_wire_sha256: string } | null;
  readonly steps: readonly {
    input: string;
    body_sha256: string;
    body_wire_sha256: string;
    finish_reason: string;
    usage: AssistantReply['usage'];
    cost: Cost;
    tool_calls: readonly {
      id: string;
      name: string;
      status: ToolCallStatus;
      result_bytes: number;
      duration_ms: number;
    }[];
  }[];
  readonly tool_projection_warning: Pick<
    ToolProjectionWarning,
    'code' | 'omitted' | 'omitted_count' | 'more' | 'tool_choice'
  > | null;
}

/** What `cw send --json` prints: the final reply, why the loop stopped, the totals, and every step's request hashes, usage and tool calls. */
export function sendJsonDocument(sent: SentTurn, turn: TurnTotals, redact: LineRedaction): SendJsonDocument {
  const body = 'exact' in sent.manifest.body ? sent.manifest.body.exact : null;
  const warning = sent.warning;
  return {
    reply: { text: sent.reply.text, tool_calls: sent.reply.toolCalls, usage: sent.reply.usage },
    stopped: sent.stopped,
    session: redact.safeIdentifier(turn.session),
    session_id: safeSessionKey(turn.session_id, redact),
    usage: turn.usage,
    cost: turn.cost,
    session_cost: turn.session_cost,
    sent: body === null ? null : { body_sha256: body.body_sha256, body_wire_sha256: body.body_wire_sha256 },
    steps: sent.steps.map((step) => ({
      input: step.input,
      body_sha256: step.bodySha256,
      body_wire_sha256: step.bodyWireSha256,
      finish_reason: step.finishReason,
      usage: step.reply.usage,
      cost: step.cost,
      tool_calls: step.toolResults.map((record) => ({
        id: record.call.id,
        name: record.call.name,
        status: record.status,
        result_bytes: Buffer.byteLength(record.content, 'utf8'),
        duration_ms: record.durationMs,
      })),
    })),
    tool_projection_warning:
      warning === null
        ? null
        : {
            code: warning.code,
            omitted: warning.omitted,
            omitted_count: warning.omitted_count,
            more: warning.more,
            tool_choice: warning.tool_choice,
          },
  };
}
