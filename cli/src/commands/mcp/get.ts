import { Args, Command, Flags } from '@oclif/core';
import { reportErrorAs } from '../../render/report-error.js';

/** `cw mcp get <name>`: one server's settings as cw can show them, and how its snapshot stands. */
export default class McpGet extends Command {
  static override summary = 'Show one MCP server: scope, transport, target, enabled, env and header names, snapshot';
  static override description =
    'Connects to nothing. Shows the names of env variables and headers, never their values; the command file name or URL host, never an argument or a URL path.';
  static override examples = ['<%= config.bin %> mcp get files', '<%= config.bin %> mcp get files --json'];
  static override args = { name: Args.string({ required: true, description: 'The server.' }) };
  static override flags = { json: Flags.boolean({ description: 'Print the server as JSON.' }) };

  async run(): Promise<void> {
    try {
      const { args, flags } = await this.parse(McpGet);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      const { servers, scopes } = await core.mcp.readEffectiveMcpServers(home);
      const server = Object.hasOwn(servers, args.name) ? servers[args.name] : undefined;
      if (server === undefined) {
        throw new core.mcp.McpConfigEditError(
          `no MCP server named ${core.safeIdentifier(args.name)} is configured (cw mcp list shows them)`,
        );
      }
      let snapshot = core.mcp.emptyMcpSnapshot();
      try {
        snapshot = await core.mcp.readMcpSnapshot(home);
      } catch (error) {
        if (!(error instanceof core.mcp.McpSnapshotError)) throw error;
      }
      const status = core.mcp.mcpServerSnapshotStatus(args.name, server, snapshot);
      const named = 'url' in server ? Object.keys(server.headers) : Object.keys(server.env);
      const shown = {
        name: core.safeIdentifier(args.name),
        scope: scopes[args.name] ?? 'user',
        transport: core.mcp.mcpTransportOf(server),
        target: core.mcp.mcpServerTarget(server),
        enabled: !server.disabled,
        [('url' in server ? 'header_names' : 'env_names') as string]: named.map((name) => core.safeEnvVarName(name)),
        snapshot: status,
        tool_count: status === 'none' ? null : (snapshot.servers[args.name]?.tools.length ?? null),
      };
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
        return;
      }
      for (const [key, value] of Object.entries(shown))
        process.stdout.write(
          `${key.padEnd(12)} ${Array.isArray(value) ? value.join(', ') || '-' : String(value ?? '-')}\n`,
        );
    } catch (error) {
      await reportErrorAs(this, error, this.argv.includes('--json'));
    }
  }
}
