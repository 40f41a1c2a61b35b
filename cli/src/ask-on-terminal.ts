import { createInterface } from 'node:readline/promises';
import type { AskAnswer } from '@cw/core';

/** Whether a person can be asked: both the keyboard and the screen are a terminal. */
export function canAsk(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}

/** Asks about one tool call on the terminal: y (run it), n (refuse it), a (run this tool from now on). */
export async function askOnTerminal(
  call: { readonly name: string; readonly summary: string; readonly details?: readonly string[] },
  safe: (text: string) => string,
): Promise<AskAnswer> {
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // What the call will do (an MCP call's annotations and arguments), one safe line each.
  for (const detail of call.details ?? []) process.stderr.write(`cw:   ${safe(detail)}\n`);
  try {
    for (;;) {
      const answer = (
        await lines.question(
          `cw: run ${safe(call.name)}${call.summary ? ` ${safe(call.summary)}` : ''}? [y]es / [n]o / [a]lways for this tool: `,
        )
      )
        .trim()
        .toLowerCase();
      if (answer === 'y' || answer === 'yes') return 'yes';
      if (answer === 'n' || answer === 'no' || answer === '') return 'no';
      if (answer === 'a' || answer === 'always') return 'always';
    }
  } finally {
    lines.close();
  }
}
