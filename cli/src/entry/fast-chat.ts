import { chatEntry } from './load-chat-bundle.js';

// `cw chat` (and `cw`, `cw "…"`, `cw -c` on a terminal) without oclif (docs/performance.md, "Every
// entry"): the launcher calls this first, and it is built into the launcher's file, so that a chat
// loads no ES module before its bundle. Off a terminal it declines at once; on one, the entry itself
// (open-chat.ts) comes from the chat bundle (load-chat-bundle.ts), and declines, having printed
// nothing, whatever only oclif reproduces exactly.

/** Runs `cw chat <argv>` when this entry can do exactly what the command would; false, having done nothing, when oclif must. */
export async function fastChat(argv: readonly string[]): Promise<boolean> {
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) return false;
  return (await chatEntry()).openChat(argv);
}
