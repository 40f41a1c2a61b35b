import { Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw mcp trust`: lets cw use the servers of this workspace's .mcp.json, as the file is now. */
export default class McpTrust extends Command {
  static override summary = "Trust this workspace's .mcp.json, so cw starts the servers it names";
  static override description =
    "A workspace's .mcp.json (the mcpServers shape other agents read) names programs to run, so cw uses it only once you trust it. This lists each server it names (name, transport and target: the command's file name or the URL's host, never an argument, env value or header) and records your trust in the cw home, for this workspace and these exact bytes: a changed file needs trusting again. A server whose name is configured in config.json is left out (yours wins).";
  static override examples = ['<%= config.bin %> mcp trust'];

  async run(): Promise<void> {
    try {
      await this.parse(McpTrust);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      const { workspace, status } = await core.mcp.readEffectiveMcpServers(home);
      const file = await core.mcp.readProjectMcpFile(workspace);
      if (file === null) {
        process.stdout.write('This workspace has no .mcp.json: nothing to trust.\n');
        return;
      }
      for (const [name, server] of Object.entries(file.servers)) {
        const shadowed = status.shadowed.includes(name) ? ' (left out: config.json has a server of this name)' : '';
        process.stdout.write(
          `  ${core.safeIdentifier(name)}  ${core.mcp.mcpTransportOf(server)}  ${core.mcp.mcpServerTarget(server)}${shadowed}\n`,
        );
      }
      for (const skipped of file.skipped)
        process.stdout.write(`  ${core.safeIdentifier(skipped.name)}  not used: ${skipped.reason}\n`);
      await core.mcp.trustProjectMcp(home, workspace, file);
      const count = Object.keys(file.servers).length;
      process.stdout.write(
        `Trusted this workspace's .mcp.json (${count} ${count === 1 ? 'server' : 'servers'}). Discover their tools with: cw mcp refresh\n`,
      );
    } catch (error) {
      await reportError(this, error);
    }
  }
}
