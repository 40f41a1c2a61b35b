import { Args, Command, Flags } from '@oclif/core';
import { reportErrorAs } from '../../render/report-error.js';

/** `cw mcp refresh`: connects to the enabled MCP servers, lists their tools and writes the MCP snapshot. */
export default class McpRefresh extends Command {
  static override summary = 'Connect to the enabled MCP servers and snapshot their tools';
  static override description =
    'Starts or reaches every enabled server (or only the one named) at once, each within 10 seconds, lists its tools and writes them to the MCP snapshot in the cw home, which cw preview-request reads. A server that fails is reported in one redacted line, naming the cause its stderr gave, and loses its snapshot entry (cw mcp list then shows it as failed); the others are still written. The stderr of each stdio server is kept, redacted, for cw mcp logs. Exits 1 when any server failed.';
  static override examples = [
    '<%= config.bin %> mcp refresh',
    '<%= config.bin %> mcp refresh files',
    '<%= config.bin %> mcp refresh --json',
  ];
  static override args = {
    name: Args.string({ required: false, description: 'Refresh only this server.' }),
  };
  static override flags = {
    json: Flags.boolean({ description: 'Print the results as JSON.' }),
    debug: Flags.boolean({
      description:
        'Print the MCP protocol exchange on stderr, one redacted line per message (the same as CW_DEBUG=mcp).',
    }),
  };

  async run(): Promise<void> {
    let failed = 0;
    try {
      const { args, flags } = await this.parse(McpRefresh);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      const { servers } = await core.mcp.readEffectiveMcpServers(home);
      if (args.name !== undefined) {
        const server = Object.hasOwn(servers, args.name) ? servers[args.name] : undefined;
        const name = core.safeIdentifier(args.name);
        if (server === undefined) {
          throw new core.mcp.McpConfigEditError(`no MCP server named ${name} is configured (cw mcp list shows them)`);
        }
        if (server.disabled) {
          throw new core.mcp.McpConfigEditError(
            `MCP server ${name} is disabled in config.json; enable it to refresh it`,
          );
        }
      }
      const enabled = Object.entries(servers).filter(
        ([name, server]) => !server.disabled && (args.name === undefined || name === args.name),
      );
      if (enabled.length === 0) {
        if (flags.json) process.stdout.write(`${JSON.stringify({ servers: [] }, null, 2)}\n`);
        else process.stdout.write('No enabled MCP servers to refresh.\n');
        return;
      }
      // Servers that ask for the sandbox are listed inside it, as cw send starts them.
      const config = await core.loadConfig(home);
      const workspace = await core.workspaceRoot(config.workspace);
      const configured = Object.values(servers).some((server) => 'command' in server && server.sandbox === true)
        ? await core.openConfiguredSandbox({
            config: { ...config.sandbox, mode: config.sandbox.mode === 'required' ? 'on' : config.sandbox.mode },
            env: process.env,
            workspace,
            cwHome: home,
          })
        : null;
      const results = await core.mcp
        .refreshMcpSnapshot({
          home,
          servers,
          // Servers start with what every command cw starts receives (docs/security.md).
          config,
          ...(args.name === undefined ? {} : { only: [args.name] }),
          ...(configured?.sandbox ? { sandbox: configured.sandbox } : {}),
          workspace,
          ...(flags.debug ? { env: { ...process.env, CW_DEBUG: 'mcp' } } : {}),
        })
        .finally(() => configured?.sandbox?.close());
      // The detail is one line already redacted by the core (cw's words, or outside text through safeErrorText).
      const shown = results.map((result) =>
        result.ok
          ? { name: core.safeIdentifier(result.name), ok: true, tool_count: result.toolCount }
          : { name: core.safeIdentifier(result.name), ok: false, error: { code: result.code, detail: result.detail } },
      );
      failed = results.filter((result) => !result.ok).length;
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ servers: shown }, null, 2)}\n`);
      } else {
        const width = Math.max(...shown.map((entry) => entry.name.length));
        for (const entry of shown) {
          const outcome =
            'error' in entry && entry.error
              ? `failed: ${entry.error.code}: ${core.terminalSafe(entry.error.detail)}`
              : `${entry.tool_count} ${entry.tool_count === 1 ? 'tool' : 'tools'}`;
          process.stdout.write(`${entry.ok ? 'ok  ' : 'FAIL'}  ${entry.name.padEnd(width)}  ${outcome}\n`);
        }
        process.stdout.write(
          `Refreshed ${results.length - failed} of ${results.length} MCP ${results.length === 1 ? 'server' : 'servers'}; the snapshot was written.\n`,
        );
      }
    } catch (error) {
      // A script that asked for JSON gets its failure as JSON too.
      await reportErrorAs(this, error, this.argv.includes('--json'));
    }
    // Outside the try: exit() throws, and reportError would print that as a failure of its own.
    if (failed > 0) this.exit(1);
  }
}
