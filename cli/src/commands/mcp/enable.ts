import { Args, Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw mcp enable <name>`: takes a server in config.json back into every turn, refresh and preview. */
export default class McpEnable extends Command {
  static override summary = 'Enable an MCP server in config.json';
  static override description =
    'Changes only the disabled field of that server in config.json, atomically and under a lock; comments and every other key are kept. A server from the workspace .mcp.json is changed in that file.';
  static override examples = ['<%= config.bin %> mcp enable files'];
  static override args = { name: Args.string({ required: true, description: 'The server.' }) };

  async run(): Promise<void> {
    try {
      const { args } = await this.parse(McpEnable);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      await core.mcp.setMcpServerDisabled(cwHome(), args.name, false);
      process.stdout.write(`Enabled MCP server ${core.safeIdentifier(args.name)}.\n`);
    } catch (error) {
      await reportError(this, error);
    }
  }
}
