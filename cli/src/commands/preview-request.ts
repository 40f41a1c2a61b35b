import { Command } from '@oclif/core';
import { reportError } from '../report-error.js';

/** `cw preview-request`: describe the next turn's request, offline, without sending or writing anything. */
export default class PreviewRequest extends Command {
  static override summary = 'Show exactly what the next turn would send, without sending it';
  static override description =
    'Prints a redacted manifest of the next request: route, dialect, wire model, tools after projection, reasoning control, byte and token accounting, context headroom and whole-body hashes. Flags come first; --prompt takes the rest of the line as prompt text.';
  static override usage = 'preview-request [json|manifest] [--blocking] [--prompt <text>] | base-prompt';
  static override examples = ['<%= config.bin %> preview-request json --prompt "fix the failing test"', '<%= config.bin %> preview-request --blocking --prompt hello'];
  static override hiddenAliases = ['dryrun', 'preview_request'];
  static override strict = false;

  async run(): Promise<void> {
    // this.parse() would reject --prompt and the bare-word flags: the grammar is ours, read from raw argv.
    this.parsed = true;
    try {
      const { parsePreviewRequestArgs } = await import('../grammar.js');
      const args = parsePreviewRequestArgs(this.argv);
      const core = await import('@cw/core');
      if (args.output === 'base-prompt') {
        process.stdout.write(core.BUNDLED_BASE_PROMPT);
        return;
      }
      const { loadRuntime } = await import('../load-runtime.js');
      const { snapshot, registry } = await loadRuntime(this.config);
      const { manifest } = core.previewRequest(snapshot, args.prompt, args.entrypoint);
      const { renderPluginProblems } = await import('../render-plugin-problems.js');
      await renderPluginProblems(registry.problems);
      if (args.output === 'json') {
        process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
      } else {
        const color = process.stdout.isTTY === true && !process.env['NO_COLOR'];
        process.stdout.write(core.renderManifestTable(manifest, { color }));
      }
    } catch (error) {
      await reportError(this, error);
    }
  }
}
