import { Command } from '@oclif/core';
import { sendFlags, turnFlags } from '../command-line.js';
import { CHAT_USAGE } from '../flags/chat-args.js';
import { reportError } from '../report-error.js';

const { prompt: _prompt, ...chatTurnFlags } = turnFlags;

/** `cw chat` (and `cw` alone on a terminal): the interactive session, turn after turn in one process. */
export default class Chat extends Command {
  static override summary = 'Talk with the agent in this workspace, turn after turn, in one session';
  static override description =
    'Streams each reply, shows every tool call and asks before running one under approval ask; slash commands (/help) change the route, model, reasoning, approval and session, show /preview and /mcp. MCP servers start on the first call of their tools and stay up until you leave. `cw` with no command opens this on a terminal. Docs: docs/cli.md.';
  static override usage =
    'chat [-r <route>] [-m <model>|<route/model>] [--reasoning <level>] [-s <name>|-n|-c] [--approval <posture>]';
  static override examples = [
    '<%= config.bin %>',
    '<%= config.bin %> chat -c',
    '<%= config.bin %> chat -m deepseek/deepseek-reasoner --reasoning high --approval ask',
  ];
  static override flags = { ...chatTurnFlags, approval: sendFlags.approval };

  async run(): Promise<void> {
    try {
      const { parseCommandLine } = await import('../command-line.js');
      const { UsageError, approvalValue } = await import('../grammar.js');
      const { requireTerminal } = await import('../flags/chat-args.js');
      const line = await parseCommandLine<{ approval?: string }>(this, Chat, this.argv, CHAT_USAGE);
      if (line.prompt !== undefined)
        throw new UsageError('cw chat takes no --prompt: type the prompt in the session.', CHAT_USAGE);
      const approval = line.flags.approval === undefined ? undefined : approvalValue(line.flags.approval, CHAT_USAGE);
      requireTerminal();
      const { agentFor, runtimeSourceOf } = await import('../load-runtime.js');
      const { agent, registry } = await agentFor(runtimeSourceOf(this.config));
      const { renderPluginProblems } = await import('../render-plugin-problems.js');
      await renderPluginProblems(registry.problems);
      const { runChatSession } = await import('../chat/chat-session.js');
      await runChatSession({ agent, registry, choices: line.choices, approval });
    } catch (error) {
      if ((error as { oclif?: unknown }).oclif !== undefined) throw error;
      await reportError(this, error);
    }
  }
}
