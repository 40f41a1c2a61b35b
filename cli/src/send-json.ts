import type { AssistantReply, SentTurn, ToolCallStatus } from '@cw/core';
import type { ToolProjectionWarning } from '@cw/core/plugin';

/** The `cw send --json` document (docs/agent-loop.md). */
export interface SendJsonDocument {
  readonly reply: { text: string; tool_calls: AssistantReply['toolCalls']; usage: AssistantReply['usage'] };
  readonly stopped: SentTurn['stopped'];
  readonly sent: { body_sha256: string; body_wire_sha256: string } | null;
  readonly steps: readonly {
    input: string;
    body_sha256: string;
    finish_reason: string;
    usage: AssistantReply['usage'];
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

/** What `cw send --json` prints: the final reply, why the loop stopped, and every step's request hash and tool calls. */
export function sendJsonDocument(sent: SentTurn): SendJsonDocument {
  const body = 'exact' in sent.manifest.body ? sent.manifest.body.exact : null;
  const warning = sent.warning;
  return {
    reply: { text: sent.reply.text, tool_calls: sent.reply.toolCalls, usage: sent.reply.usage },
    stopped: sent.stopped,
    sent: body === null ? null : { body_sha256: body.body_sha256, body_wire_sha256: body.body_wire_sha256 },
    steps: sent.steps.map((step) => ({
      input: step.input,
      body_sha256: step.bodySha256,
      finish_reason: step.finishReason,
      usage: step.reply.usage,
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
