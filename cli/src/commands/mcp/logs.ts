import { Args, Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw mcp logs <name>`: what a stdio server wrote on stderr in its last run, as cw kept it (redacted). */
export default class McpLogs extends Command {
  static override summary = 'Show what an MCP server wrote on stderr in its last run (redacted)';
  static override description =
    'Prints the log cw keeps for a stdio server: the last lines (at most 200, 64 KiB) it wrote on stderr while cw last ran it (a refresh or a send), each redacted as error text is (no secret, path or URL path). Connects to nothing. An HTTP server has no log.';
  static override examples = ['<%= config.bin %> mcp logs files'];
  static override args = {
    name: Args.string({
      required: true,
      description: 'The server, as named in config.json or the workspace .mcp.json.',
    }),
  };

  async run(): Promise<void> {
    try {
      const { args } = await this.parse(McpLogs);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      // Every scope: config.json and the workspace's .mcp.json (one not yet trusted has simply not run).
      const { servers, status } = await core.mcp.readEffectiveMcpServers(home);
      const name = core.safeIdentifier(args.name);
      if (!Object.hasOwn(servers, args.name) && !Object.hasOwn(status.file?.servers ?? {}, args.name)) {
        throw new core.mcp.McpConfigEditError(`no MCP server named ${name} is configured (cw mcp list shows them)`);
      }
      const log = await core.mcp.readMcpServerLog(home, args.name);
      if (log === null) {
        process.stdout.write(
          `No log for ${name} yet: cw keeps one once the server has run (cw mcp refresh ${name}).\n`,
        );
        return;
      }
      if (log === '') {
        process.stdout.write(`${name} wrote nothing on stderr in its last run.\n`);
        return;
      }
      // The lines were redacted as they were kept; terminal controls are removed again on the way out.
      process.stdout.write(core.terminalSafeMultiline(log));
    } catch (error) {
      await reportError(this, error);
    }
  }
}
