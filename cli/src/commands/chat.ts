import { Command } from '@oclif/core';
import { oclifFlagsOf } from '../flags/oclif-flags.js';
import { CHAT_USAGE, usageFlags } from '../flags/usage-lines.js';
import { reportError } from '../render/report-error.js';

/** `cw chat` (and `cw` alone on a terminal): the interactive session, turn after turn in one process. */
export default class Chat extends Command {
  static override summary = 'Talk with the agent in this workspace, turn after turn, in one session';
  static override description =
    'Streams each reply, shows every tool call and asks before running one under approval ask; slash commands (/help) change the route, model, reasoning, approval and session, show /preview and /mcp. MCP servers start on the first call of their tools and stay up until you leave. `cw` with no command opens this on a terminal; `cw "<prompt>"` opens it with that first prompt. Here -r is --resume (a session by name, or a picker without one); --route has no short form. Docs: docs/cli.md.';
  static override usage = `chat ${usageFlags('chat')}`;
  static override examples = [
    '<%= config.bin %>',
    '<%= config.bin %> "explain this repository"',
    '<%= config.bin %> chat -c',
    '<%= config.bin %> chat -r',
    '<%= config.bin %> chat -m deepseek/deepseek-reasoner --reasoning high --approval ask',
  ];
  static override flags = oclifFlagsOf('chat');

  async run(): Promise<void> {
    try {
      const { takeBareResume } = await import('../entry/start-line.js');
      const bare = takeBareResume(this.argv);
      const { parseCommandLine } = await import('../flags/command-line.js');
      const line = await parseCommandLine<{ approval?: string; resume?: string; continue?: boolean }>(
        this,
        Chat,
        bare.argv,
        CHAT_USAGE,
      );
      const { runChat } = await import('../run/run-chat.js');
      const { runtimeSourceOf } = await import('../entry/load-runtime.js');
      await runChat(
        { flags: line.flags, prompt: line.prompt, choices: line.choices, pick: bare.pick },
        () => runtimeSourceOf(this.config),
        this,
      );
    } catch (error) {
      if ((error as { oclif?: unknown }).oclif !== undefined) throw error;
      await reportError(this, error);
    }
  }
}
