import { createInterface } from 'node:readline/promises';
import type { AskAnswer, AskedCall } from '@cw/core';
import { answerChoices, readAnswer } from '../render/approval-answers.js';
import { fileDiffLines } from '../render/file-diff-lines.js';

/** Whether a person can be asked: both the keyboard and the screen are a terminal. */
export function canAsk(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}

/**
 * Asks about one tool call on the terminal, with the answers cw chat offers (render/approval-answers.ts):
 * y, n (or `n: why`, told to the model), a (this tool from now on), s (an MCP call's whole server),
 * w (the call's allow rule, kept for this workspace). `details` (an MCP call's annotations and argument
 * preview) and a file change's diff are printed first. For a call that failed inside the sandbox it
 * asks only yes or no: a run outside is never kept.
 */
export async function askOnTerminal(call: AskedCall, safe: (text: string) => string): Promise<AskAnswer> {
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // What the call will do (an MCP call's annotations and arguments), one safe line each.
  for (const detail of call.details ?? []) process.stderr.write(`cw:   ${safe(detail)}\n`);
  if (call.change !== undefined && call.outsideSandbox === undefined) {
    const noColor = process.env['NO_COLOR'];
    const color = process.stderr.isTTY === true && (noColor === undefined || noColor === '');
    for (const line of fileDiffLines(call.change, color, safe)) process.stderr.write(`${line}\n`);
  }
  try {
    if (call.outsideSandbox !== undefined) {
      process.stderr.write(`cw: ${safe(call.outsideSandbox)}\n`);
      const answer = (
        await lines.question(
          `cw: the command failed inside the sandbox; run ${safe(call.name)}${call.summary ? ` ${safe(call.summary)}` : ''} once WITHOUT the sandbox? [y]es / [n]o: `,
        )
      )
        .trim()
        .toLowerCase();
      return answer === 'y' || answer === 'yes' ? 'yes' : 'no';
    }
    const offer = {
      rule: call.rule !== undefined,
      ...(call.server === undefined ? {} : { server: safe(call.server) }),
    };
    for (;;) {
      const typed = await lines.question(
        `cw: run ${safe(call.name)}${call.summary ? ` ${safe(call.summary)}` : ''}? ${answerChoices(offer)}: `,
      );
      const answer = readAnswer(typed, offer);
      if (answer !== null) return answer;
    }
  } finally {
    lines.close();
  }
}
