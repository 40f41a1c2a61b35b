import { Args, Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw mcp disable <name>`: keeps a server in config.json but out of every turn, refresh and preview. */
export default class McpDisable extends Command {
  static override summary = 'Disable an MCP server in config.json (it stays configured)';
  static override description =
    'Changes only the disabled field of that server in config.json, atomically and under a lock; comments and every other key are kept. A server from the workspace .mcp.json is changed in that file.';
  static override examples = ['<%= config.bin %> mcp disable files'];
  static override args = { name: Args.string({ required: true, description: 'The server.' }) };

  async run(): Promise<void> {
    try {
      const { args } = await this.parse(McpDisable);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      await core.mcp.setMcpServerDisabled(cwHome(), args.name, true);
      process.stdout.write(`Disabled MCP server ${core.safeIdentifier(args.name)}.\n`);
    } catch (error) {
      await reportError(this, error);
    }
  }
}
