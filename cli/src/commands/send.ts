import { Command } from '@oclif/core';
import { reportError } from '../report-error.js';

/** `cw send`: send exactly the request preview-request describes, and save the turn when it succeeds. */
export default class Send extends Command {
  static override summary = 'Send the next turn: exactly the request preview-request describes';
  static override description =
    'Prepares the request through the same seam as preview-request, sends its exact bytes, prints the reply, and appends the turn to the session only when the provider answered successfully.';
  static override usage = 'send [--json] [--blocking] --prompt <text>';
  static override examples = [
    '<%= config.bin %> send --prompt "explain this repository"',
    '<%= config.bin %> send --json --blocking --prompt hello',
  ];
  static override strict = false;

  async run(): Promise<void> {
    this.parsed = true;
    try {
      const { parseSendArgs } = await import('../grammar.js');
      const args = parseSendArgs(this.argv);
      const core = await import('@cw/core');
      const { loadRuntime } = await import('../load-runtime.js');
      const { snapshot, home, registry } = await loadRuntime(this.config);
      const { renderPluginProblems } = await import('../render-plugin-problems.js');
      await renderPluginProblems(registry.problems);
      const { projectionWarningLine } = await import('../render-projection-warning.js');
      let streamed = false;
      const { manifest, reply, warning } = await core.sendTurn(snapshot, {
        home,
        prompt: args.prompt,
        entrypoint: args.entrypoint,
        env: process.env,
        // Printed before the request goes out: the person sees which tools were left off first.
        onWarning: (found) => process.stderr.write(projectionWarningLine(found, core.terminalSafe)),
        // Text as it arrives, for a person; --json prints one document at the end instead.
        ...(args.json
          ? {}
          : {
              onText: (delta: string) => {
                streamed = true;
                process.stdout.write(core.terminalSafeMultiline(delta));
              },
            }),
      });
      if (args.json) {
        const body = 'exact' in manifest.body ? manifest.body.exact : null;
        const result = {
          reply: { text: reply.text, tool_calls: reply.toolCalls, usage: reply.usage },
          sent: body === null ? null : { body_sha256: body.body_sha256, body_wire_sha256: body.body_wire_sha256 },
          tool_projection_warning:
            warning === null
              ? null
              : {
                  code: warning.code,
                  omitted: warning.omitted,
                  omitted_count: warning.omitted_count,
                  more: warning.more,
                  tool_choice: warning.tool_choice,
                },
        };
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      } else {
        // The reply is the model's text, shown to the person who asked for it; only terminal controls are removed.
        process.stdout.write(streamed ? '\n' : `${core.terminalSafeMultiline(reply.text)}\n`);
      }
    } catch (error) {
      await reportError(this, error);
    }
  }
}
