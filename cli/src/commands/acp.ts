import { Command } from '@oclif/core';
import { reportError } from '../render/report-error.js';

/** `cw acp`: cw as an Agent Client Protocol agent on stdin and stdout, for editors. */
export default class Acp extends Command {
  static override summary = 'Serve the Agent Client Protocol on stdin and stdout, for editors (Zed, JetBrains, Neovim)';
  static override description =
    'An editor starts cw acp and speaks ACP to it: sessions in the folder it opens (saved as cw sessions), prompts whose tool calls ask through the editor, cancellation, the approval posture as the session mode and the route as a config option. stdout carries only the protocol; cw logs to stderr. Docs: docs/editors.md.';
  static override examples = ['<%= config.bin %> acp'];
  static override flags = {};

  async run(): Promise<void> {
    try {
      await this.parse(Acp);
      // The protocol SDK loads here only, so no other command pays for it.
      const { serveAcp } = await import('../acp/serve-acp.js');
      const { runtimeSourceOf } = await import('../entry/load-runtime.js');
      await serveAcp({ source: runtimeSourceOf(this.config), version: this.config.version });
    } catch (error) {
      await reportError(this, error);
    }
  }
}
