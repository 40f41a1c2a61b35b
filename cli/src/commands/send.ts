import { Command } from '@oclif/core';
import { reportError } from '../report-error.js';

/** `cw send`: send exactly the request preview-request describes, and save the turn when it succeeds. */
export default class Send extends Command {
  static override summary = 'Send the next turn: exactly the request preview-request describes';
  static override description =
    'Prepares the request through the same seam as preview-request, sends its exact bytes, prints the reply, and appends the turn to the session only when the provider says the reply is complete. Timeouts, retries and what a failed turn leaves behind: docs/transport.md.';
  static override usage = 'send [--json] [--blocking] [--max-retries <0-10>] --prompt <text>';
  static override examples = [
    '<%= config.bin %> send --prompt "explain this repository"',
    '<%= config.bin %> send --json --blocking --prompt hello',
    '<%= config.bin %> send --max-retries 0 --prompt hello',
  ];
  static override strict = false;

  async run(): Promise<void> {
    this.parsed = true;
    let json = false;
    let streamed = false;
    let midLine = false;
    try {
      const { parseSendArgs } = await import('../grammar.js');
      const args = parseSendArgs(this.argv);
      json = args.json;
      const core = await import('@cw/core');
      const { loadRuntime } = await import('../load-runtime.js');
      const { snapshot, home, registry } = await loadRuntime(this.config);
      const { renderPluginProblems } = await import('../render-plugin-problems.js');
      await renderPluginProblems(registry.problems);
      const { projectionWarningLine } = await import('../render-projection-warning.js');
      const retries = core.transportSettingsFor(snapshot.config, '', { maxRetries: args.maxRetries }).maxRetries;
      const notice = (line: string): void => {
        // A notice never lands in the middle of streamed reply text.
        if (midLine) process.stdout.write('\n');
        midLine = false;
        process.stderr.write(`cw: ${core.terminalSafe(line)}\n`);
      };
      const { manifest, reply, warning } = await core.sendTurn(snapshot, {
        home,
        prompt: args.prompt,
        entrypoint: args.entrypoint,
        env: process.env,
        ...(args.maxRetries === undefined ? {} : { maxRetries: args.maxRetries }),
        // Printed before the request goes out: the person sees which tools were left off first.
        onWarning: (found) => process.stderr.write(projectionWarningLine(found, core.terminalSafe)),
        onWait: () => notice('waiting for another cw send on this session to finish'),
        onStaleLockBroken: () => notice('removed a session lock left by a cw process that is no longer running'),
        onRetry: (retry) => notice(`retry ${retry.attempt} of ${retries} in ${retry.delayMs} ms after ${retry.cause}`),
        // Text as it arrives, for a person; --json prints one document at the end instead.
        ...(args.json
          ? {}
          : {
              onText: (delta: string) => {
                const text = core.terminalSafeMultiline(delta);
                process.stdout.write(text);
                streamed = true;
                midLine = !text.endsWith('\n');
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
        midLine = false;
      }
    } catch (error) {
      // Streamed text ends its line first, so the error line stands on its own.
      if (midLine) process.stdout.write('\n');
      if (json) {
        const { jsonErrorDocument } = await import('../json-error.js');
        process.stdout.write(`${JSON.stringify(await jsonErrorDocument(error), null, 2)}\n`);
      }
      await reportError(this, error);
    }
  }
}
