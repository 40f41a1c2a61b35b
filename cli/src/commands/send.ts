import { Command } from '@oclif/core';
import { oclifFlagsOf } from '../flags/oclif-flags.js';
import { usageFlags } from '../flags/usage-lines.js';
import { runtimeSourceOf } from '../entry/load-runtime.js';
import type { SendFlags } from '../run/run-send.js';

/** `cw send`: send exactly the request preview-request describes, run the tools the model calls, save each step. */
export default class Send extends Command {
  static override summary = 'Send the next turn and run the tools the model calls, under an approval posture';
  static override description =
    'Each request goes through the same seam as preview-request and is sent byte for byte; a reply counts only when complete. Tool calls run under the approval posture (never, read-only, workspace, ask), in the workspace, and every step is saved as it completes. Without --prompt, continues a loop that stopped after running tools. Docs: docs/agent-loop.md, docs/transport.md.';
  static override usage = `send ${usageFlags('send')}`;
  static override examples = [
    '<%= config.bin %> send --prompt "explain this repository"',
    '<%= config.bin %> send -m deepseek/deepseek-reasoner --reasoning high --prompt "plan the refactor"',
    '<%= config.bin %> send -n --prompt "start over on a new task"',
    'git diff | <%= config.bin %> send --prompt -',
    '<%= config.bin %> send --approval workspace --prompt "make the failing test pass"',
    '<%= config.bin %> send --no-tool-runs --json --blocking --prompt hello',
    '<%= config.bin %> send --approval workspace --output-format stream-json --prompt "fix the test" | jq -c .',
    '<%= config.bin %> send --mcp-prompt everything/args-prompt --arg city=Lyon',
    '<%= config.bin %> send',
  ];
  static override flags = oclifFlagsOf('send');

  async run(): Promise<void> {
    this.parsed = true;
    // oclif's parse empties this.argv: the words as typed are kept for the checks after it.
    const argv = [...this.argv];
    const { runSend } = await import('../run/run-send.js');
    await runSend(
      argv,
      async () => {
        const { SEND_USAGE } = await import('../flags/usage-lines.js');
        const { parseCommandLine } = await import('../flags/command-line.js');
        const line = await parseCommandLine<SendFlags & Record<string, unknown>>(this, Send, argv, SEND_USAGE);
        return { flags: line.flags, prompt: line.prompt, choices: line.choices };
      },
      () => runtimeSourceOf(this.config),
      this,
    );
  }
}
