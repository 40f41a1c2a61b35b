import type { AskedCall } from '@cw/core';
import { type AnswerOffer, answerChoices } from '../render/approval-answers.js';

// The approval asked inline under the `ask` posture: which call, the arguments that matter, and the
// answers (the same as cw send's, render/approval-answers.ts). "Always" lasts for the session, in the
// core's approval store: for this tool or, for an MCP tool, its whole server; `w` keeps it for the
// workspace.

/** The answers a call offers, its server name made printable. */
export function answerOffer(call: AskedCall, safe: (text: string) => string): AnswerOffer {
  return { rule: call.rule !== undefined, ...(call.server === undefined ? {} : { server: safe(call.server) }) };
}

/**
 * The question: the call's own label (its path or command); for an MCP call the server's hints and
 * its arguments (the core's bounded, redacted lines, paths in the workspace relative); then the answers.
 */
export function approvalQuestion(call: AskedCall, safe: (text: string) => string): string {
  const what = `${safe(call.name)}${call.summary === '' ? '' : ` ${safe(call.summary)}`}`;
  const [hints, ...args] = call.server === undefined ? [] : (call.details ?? []);
  const about =
    hints === undefined
      ? ''
      : `\n  ${safe(hints)}\n  arguments: ${args.length === 0 ? '(none)' : args.map(safe).join(', ')}`;
  return `run ${what}?${about}\n${answerChoices(answerOffer(call, safe))}: `;
}
