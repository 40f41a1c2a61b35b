import { createInterface } from 'node:readline/promises';
import type { AskAnswer, AskedCall } from '@cw/core';

/** Whether a person can be asked: both the keyboard and the screen are a terminal. */
export function canAsk(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}

/**
 * Asks about one tool call on the terminal: y (run it), n (refuse it), a (run this tool from now on),
 * w (keep the call's allow rule for this workspace). `details` (an MCP call's annotations and
 * argument preview) are printed first. For a call that failed inside the sandbox it asks only yes or
 * no: a run outside is never kept.
 */
export async function askOnTerminal(
  call: AskedCall & { readonly details?: readonly string[] },
  safe: (text: string) => string,
): Promise<AskAnswer | 'workspace'> {
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // What the call will do (an MCP call's annotations and arguments), one safe line each.
  for (const detail of call.details ?? []) process.stderr.write(`cw:   ${safe(detail)}\n`);
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
    for (;;) {
      const answer = (
        await lines.question(
          `cw: run ${safe(call.name)}${call.summary ? ` ${safe(call.summary)}` : ''}? [y]es / [n]o / [a]lways for this tool${call.rule === undefined ? '' : ' / [w]orkspace: always allow this here'}: `,
        )
      )
        .trim()
        .toLowerCase();
      if (answer === 'y' || answer === 'yes') return 'yes';
      if (answer === 'n' || answer === 'no' || answer === '') return 'no';
      if (answer === 'a' || answer === 'always') return 'always';
      if (call.rule !== undefined && (answer === 'w' || answer === 'workspace')) return 'workspace';
    }
  } finally {
    lines.close();
  }
}
