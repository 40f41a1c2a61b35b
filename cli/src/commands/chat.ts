import { Command } from '@oclif/core';
import { oclifFlagsOf } from '../flags/oclif-flags.js';
import { CHAT_USAGE, usageFlags } from '../flags/usage-lines.js';
import { reportError } from '../report-error.js';

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
      const { parseCommandLine } = await import('../command-line.js');
      const { UsageError } = await import('../flags/usage-error.js');
      const { approvalValue } = await import('../flags/flag-values.js');
      const line = await parseCommandLine<{ approval?: string; resume?: string; continue?: boolean }>(
        this,
        Chat,
        bare.argv,
        CHAT_USAGE,
      );
      const approval = line.flags.approval === undefined ? undefined : approvalValue(line.flags.approval, CHAT_USAGE);
      if (process.stdin.isTTY !== true || process.stdout.isTTY !== true)
        throw new UsageError('cw chat needs a terminal; from a script, use cw send --prompt <text>.', CHAT_USAGE);
      const session = bare.pick
        ? ({ kind: 'pick' } as const)
        : line.flags.resume !== undefined
          ? ({ kind: 'resume', name: line.flags.resume } as const)
          : line.flags.continue === true
            ? ({ kind: 'continue' } as const)
            : ({ kind: 'none' } as const);
      if (bare.pick && line.choices.session !== undefined)
        throw new UsageError(
          '`--session`, `--new`, `--continue` and `--resume` each pick the session: give one.',
          CHAT_USAGE,
        );
      const { startSessionProblem } = await import('../run/start-session.js');
      const problem = await startSessionProblem(session);
      if (problem !== null) {
        process.stderr.write(`cw: ${problem}\n`);
        this.exit(2);
      }
      let choices = line.choices;
      if (session.kind === 'pick') {
        const { pickSession } = await import('../chat/session-picker.js');
        const picked = await pickSession();
        if (picked === null) return;
        choices = { ...choices, session: { kind: 'named', name: picked } };
      }
      const { agentFor, runtimeSourceOf } = await import('../load-runtime.js');
      const { agent, registry } = await agentFor(runtimeSourceOf(this.config));
      const { renderPluginProblems } = await import('../render-plugin-problems.js');
      await renderPluginProblems(registry.problems);
      const { runChatSession } = await import('../chat/chat-session.js');
      await runChatSession({
        agent,
        registry,
        choices,
        approval,
        ...(line.prompt === undefined ? {} : { firstPrompt: line.prompt }),
        resumed: session.kind !== 'none',
      });
    } catch (error) {
      if ((error as { oclif?: unknown }).oclif !== undefined) throw error;
      await reportError(this, error);
    }
  }
}
