import { Args, Command, Flags } from '@oclif/core';
import { reportErrorAs } from '../../render/report-error.js';

/** `cw sessions show <name>`: a session's messages by role, size and tool calls; text only with --text. Reads only. */
export default class SessionsShow extends Command {
  static override summary = "Show a session's messages: roles, sizes, tool calls (text with --text)";
  static override examples = [
    '<%= config.bin %> sessions show default',
    '<%= config.bin %> sessions show s2 --json',
    '<%= config.bin %> sessions show default --text',
  ];
  static override args = { name: Args.string({ required: true, description: 'The session, in this workspace.' }) };
  static override flags = {
    json: Flags.boolean({ summary: 'Print the session as JSON.' }),
    text: Flags.boolean({ summary: "Include each message's text (secret-shaped text and terminal controls removed)." }),
  };

  async run(): Promise<void> {
    let json = this.argv.includes('--json');
    try {
      const { args, flags } = await this.parse(SessionsShow);
      json = flags.json;
      const core = await import('@cw/core');
      const { sessionKeyHere } = await import('../../flags/session-target.js');
      const { home, key } = await sessionKeyHere(args.name);
      const messages = await core.showSession(home, key);
      const views = messages.map((message) => ({
        ...core.messageView(message),
        tool_calls: core.messageView(message).tool_calls.map((name) => core.safeIdentifier(name)),
        tool: message.role === 'tool' ? core.safeIdentifier(message.name) : null,
      }));
      const texts = flags.text ? messages.map((message) => core.terminalSafeMultiline(message.content)) : null;
      if (json) {
        const withText = views.map((view, index) => (texts === null ? view : { ...view, text: texts[index] ?? '' }));
        process.stdout.write(
          `${JSON.stringify({ session: core.safeIdentifier(args.name), messages: withText }, null, 2)}\n`,
        );
        return;
      }
      const turns = messages.filter((message) => message.role === 'user').length;
      process.stdout.write(
        `session ${core.safeIdentifier(args.name)}: ${turns} turn(s), ${messages.length} message(s)\n`,
      );
      views.forEach((view, index) => {
        const calls = view.tool_calls.length > 0 ? `  calls ${view.tool_calls.join(', ')}` : '';
        const tool = view.tool === null ? '' : `  ${view.tool}${view.status === null ? '' : ` (${view.status})`}`;
        const images = view.images > 0 ? `  ${view.images} image(s)` : '';
        process.stdout.write(
          `${String(index + 1).padStart(4)}  ${view.role.padEnd(9)} ${String(view.bytes).padStart(8)} bytes${tool}${calls}${images}\n`,
        );
        const text = texts?.[index];
        if (text) process.stdout.write(`${indent(text)}\n`);
      });
    } catch (error) {
      await reportErrorAs(this, error, json);
    }
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `        ${line}`)
    .join('\n');
}
