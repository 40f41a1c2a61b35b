import { fastChatArgs, requireTerminal } from '../flags/chat-args.js';
import { fastRuntimeSource } from '../fast-runtime-source.js';

// `cw chat` (and `cw` alone on a terminal) without oclif: a person waits for the prompt, and loading
// oclif and its plugin discovery was most of that wait (docs/performance.md, "Every entry"). bin/run.js
// calls this first; it reads the flags (flags/chat-args.ts) and finds the plugins the way the send
// entry does (fast-runtime-source.ts), then runs the very session the command runs
// (chat/chat-session.ts). Whatever it is not sure it reproduces exactly (help, an unusual spelling of
// a flag, no terminal, plugins only oclif can find) it declines, having printed nothing.

/** Runs `cw chat <argv>` when this entry can do exactly what the command would; false, having done nothing, when oclif must. */
export async function fastChat(argv: readonly string[]): Promise<boolean> {
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) return false;
  const args = fastChatArgs(argv);
  if (args === undefined) return false;
  const source = fastRuntimeSource();
  if (source === undefined) return false;
  try {
    const line = args.parse();
    requireTerminal();
    const { agentFor } = await import('../load-runtime.js');
    const { agent, registry } = await agentFor(source);
    const { renderPluginProblems } = await import('../render-plugin-problems.js');
    await renderPluginProblems(registry.problems);
    const { runChatSession } = await import('../chat/chat-session.js');
    await runChatSession({ agent, registry, choices: line.choices, approval: line.approval });
  } catch (error) {
    const { reportError } = await import('../report-error.js');
    await reportError({ exit: (code) => process.exit(code) }, error);
  }
  return true;
}
