import type { Interface } from 'node:readline';
import { Writable } from 'node:stream';

// Lines typed while nothing asks (a reply streams, a call or /compact runs) are kept and sent in
// order when the prompt is back (docs/cli.md, "Keys"). readline echoes every key as it reads it,
// so while nothing asks it writes to nowhere: the keys still reach the line being typed, but never
// the reply on the screen; the prompt shows that line again when it returns.

/** Turns readline's echo on (something asks) or off (nothing does); starts off. */
export function echoSwitch(lines: Interface, screen: NodeJS.WritableStream): (on: boolean) => void {
  const nowhere = new Writable({ write: (_chunk, _encoding, done) => done() });
  // readline draws through its `output` (keys, cursor moves, line clears); it has no switch of its own.
  const target = lines as unknown as { output: NodeJS.WritableStream };
  const set = (on: boolean): void => {
    target.output = on ? screen : nowhere;
  };
  set(false);
  return set;
}

/** The dim line that says a typed line is queued; the line is shown as typed, made terminal-safe. */
export function queuedNotice(line: string, safe: (text: string) => string, color: boolean): string {
  const text = `queued: ${safe(line)}`;
  return color ? `\u001b[2m${text}\u001b[22m` : text;
}

/** Puts lines that will not be sent back in readline's history (newest first), so Up recalls them. */
export function recallLater(lines: Interface, unsent: readonly string[]): void {
  const history = (lines as unknown as { history?: string[] }).history;
  if (history === undefined) return;
  for (const line of unsent) if (history[0] !== line) history.unshift(line);
}
