import { Args, Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw mcp remove`: removes an MCP server from config.json and its tools from the MCP snapshot. */
export default class McpRemove extends Command {
  static override summary = 'Remove an MCP server from config.json';
  static override description =
    'Deletes the server from mcpServers in config.json (the other keys are kept) and its entry from the MCP snapshot.';
  static override examples = ['<%= config.bin %> mcp remove files'];
  static override args = {
    name: Args.string({ required: true, description: 'The server name, as `cw mcp list` shows it.' }),
  };

  async run(): Promise<void> {
    try {
      const { args } = await this.parse(McpRemove);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const name = core.safeIdentifier(args.name);
      if (!(await core.mcp.removeMcpServer(cwHome(), args.name))) {
        throw new core.mcp.McpConfigEditError(`no MCP server named ${name} is configured (cw mcp list shows them)`);
      }
      process.stdout.write(`Removed MCP server ${name} from config.json.\n`);
    } catch (error) {
      await reportError(this, error);
    }
  }
}
