import type { AgentEvent, AskAnswer, AskedCall, Cost, CostTotal, EventLine, SentTurn, TotalUsage } from '@cw/core';
import { answerWord } from './approval-answers.js';
import { fileDiffLines } from './file-diff-lines.js';
import type { NoticeWords } from './notice-text.js';

// `cw send --output-format stream-json`: one JSON object per line for each Agent API event, so a
// script follows a turn as it happens (docs/cli.md, "Event stream"; docs/events.schema.json).
// What cw says itself crosses the redaction helpers; the model's text, its tool-call arguments and
// the summaries of tool results are printed as `--json` prints them.

/** The redaction helpers a line is built with (the core's, passed in so this module loads no core). */
export interface LineRedaction {
  readonly safeIdentifier: (text: string) => string;
  readonly terminalSafe: (text: string) => string;
}

/** One line of the event stream: its type is derived from the description docs/events.schema.json is generated from. */
export type StreamJsonLine = EventLine;

/**
 * The line an event prints as, or null for the events that have a line of their own (`turn-finish`
 * becomes `result` once the turn's reply is known; `error` becomes the error document) or none
 * (`approval-request` is answered by the command, which prints the decision as `approval`).
 */
export function streamJsonLine(event: AgentEvent, redact: LineRedaction, notices: NoticeWords): StreamJsonLine | null {
  switch (event.type) {
    case 'turn-start':
      return {
        type: 'turn-start',
        session_id: safeSessionKey(event.session_id, redact),
        session: redact.safeIdentifier(event.session),
      };
    case 'notice': {
      // The kind's registration gives the words and the typed fields (docs/cli.md, "Event stream").
      const shown = notices.show(event.notice);
      const fields = Object.fromEntries(
        Object.entries(shown.fields).map(([name, value]) => [
          name,
          typeof value === 'string' ? redact.terminalSafe(value) : value,
        ]),
      );
      return { type: 'notice', kind: shown.kind, message: redact.terminalSafe(shown.text), fields };
    }
    case 'projection-warning':
      return {
        type: 'projection-warning',
        code: event.warning.code,
        // The same fields, as they are, that --json's tool_projection_warning prints.
        omitted: event.warning.omitted,
        omitted_count: event.warning.omitted_count,
        more: event.warning.more,
        tool_choice: event.warning.tool_choice,
      };
    case 'step-start':
      return { type: 'step-start', step: event.step, input: event.input, body_sha256: event.body_sha256 };
    case 'text-delta':
      return { type: 'text-delta', text: event.text };
    case 'reasoning-delta':
      return { type: 'reasoning-delta', text: event.text };
    case 'retry':
      return {
        type: 'retry',
        attempt: event.retry.attempt,
        delay_ms: event.retry.delayMs,
        cause: redact.terminalSafe(event.retry.cause),
      };
    case 'tool-call':
      // The model's own arguments, as `--json` prints them in reply.tool_calls.
      return {
        type: 'tool-call',
        id: event.call.id,
        name: event.call.name,
        arguments: event.call.arguments,
        summary: redact.terminalSafe(event.summary),
      };
    case 'tool-result':
      return {
        type: 'tool-result',
        id: event.record.call.id,
        name: event.record.call.name,
        status: event.record.status,
        result_bytes: Buffer.byteLength(event.record.content, 'utf8'),
        duration_ms: event.record.durationMs,
        ...(event.record.changes === undefined
          ? {}
          : {
              changes: event.record.changes.map((change) => ({
                path: redact.terminalSafe(change.path),
                added: change.added,
                removed: change.removed,
              })),
            }),
      };
    case 'step-finish':
      return {
        type: 'step-finish',
        step: event.step,
        body_sha256: event.body_sha256,
        body_wire_sha256: event.body_wire_sha256,
        finish_reason: redact.safeIdentifier(event.finish_reason),
        usage: event.usage,
        cost: event.cost,
        tool_results: event.tool_results,
      };
    case 'approval-request':
    case 'turn-finish':
    case 'error':
      return null;
    default: {
      const never: never = event;
      return never;
    }
  }
}

/** The line saying how a person answered an approval, with the diff they were shown, if any. */
export function approvalLine(call: AskedCall, answer: AskAnswer, redact: LineRedaction): StreamJsonLine {
  return {
    type: 'approval',
    name: call.name,
    summary: redact.terminalSafe(call.summary),
    decision: answerWord(answer),
    ...(call.change === undefined
      ? {}
      : { diff: `${fileDiffLines(call.change, false, redact.terminalSafe).join('\n')}\n` }),
  };
}

/** The session a turn went to and what it added up to: what the last line and `--json` report. */
export interface TurnTotals {
  readonly session: string;
  readonly session_id: string;
  readonly usage: TotalUsage;
  readonly cost: Cost;
  readonly session_cost: CostTotal;
}

/** The last line of a turn that completed: why it stopped, the session, and usage summed over every step. */
export function resultLine(sent: SentTurn, finish: TurnTotals, redact: LineRedaction): StreamJsonLine {
  return {
    type: 'result',
    stopped: sent.stopped,
    session_id: safeSessionKey(finish.session_id, redact),
    session: redact.safeIdentifier(finish.session),
    steps: sent.steps.length,
    usage: finish.usage,
    cost: finish.cost,
    session_cost: finish.session_cost,
    text: sent.reply.text,
    tool_calls: sent.reply.toolCalls,
  };
}

/**
 * The last line of a turn Ctrl-C stopped before a reply was complete: the steps that finished and
 * their usage; the unfinished reply was not saved, so there is no text or call of it (docs/cli.md).
 */
export function interruptedResultLine(
  turn: {
    readonly session: string;
    readonly session_id: string;
    readonly steps: number;
    readonly usage: TotalUsage;
    readonly cost: Cost;
  },
  redact: LineRedaction,
): StreamJsonLine {
  return {
    type: 'result',
    stopped: 'interrupted',
    session_id: safeSessionKey(turn.session_id, redact),
    session: redact.safeIdentifier(turn.session),
    steps: turn.steps,
    usage: turn.usage,
    cost: turn.cost,
    session_cost: null,
    text: '',
    tool_calls: [],
  };
}

/** A session key (`<workspace key>/<name>`) made printable: each part is a label, checked on its own. */
export function safeSessionKey(key: string, redact: LineRedaction): string {
  return key.split('/').map(redact.safeIdentifier).join('/');
}
