import { Command, Flags } from '@oclif/core';
import { reportErrorAs } from '../../render/report-error.js';

/** One server as `cw mcp list --json` prints it: no env or header value, no URL path. */
interface ListedServer {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  /** user: config.json in the cw home; project: the workspace's trusted .mcp.json. */
  readonly scope: 'user' | 'project';
  /** The command's file name (stdio) or the URL's host (http). */
  readonly target: string;
  readonly enabled: boolean;
  /**
   * fresh: the snapshot matches the config; stale: it was taken for another config; none: never
   * refreshed; failed: the last refresh of this config entry failed (`failure` says why).
   */
  readonly snapshot: 'fresh' | 'stale' | 'none' | 'failed';
  /** Why the last refresh failed: its code and one redacted line; null unless `snapshot` is failed. */
  readonly failure: { readonly code: string; readonly detail: string } | null;
  /** Tools in the snapshot entry (fresh or stale); null without one. */
  readonly tool_count: number | null;
  readonly tools: readonly string[];
  readonly refreshed_at: string | null;
}

/** `cw mcp list`: the configured MCP servers and how their snapshot stands. Reads only; connects to nothing. */
export default class McpList extends Command {
  static override summary = 'List the MCP servers in config.json and whether their tool snapshot is fresh';
  static override description =
    'One line per server: name, transport, target (the command name, or the URL host; never a path, an env value or a header), enabled, snapshot status (fresh, stale or none) and tool count. Connects to nothing: `cw mcp refresh` updates the snapshot.';
  static override examples = ['<%= config.bin %> mcp list', '<%= config.bin %> mcp list --json'];
  static override flags = {
    json: Flags.boolean({ description: 'Print the servers as JSON.' }),
  };

  async run(): Promise<void> {
    try {
      const { flags } = await this.parse(McpList);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      const { servers, scopes, status: project } = await core.mcp.readEffectiveMcpServers(home);
      let snapshot = core.mcp.emptyMcpSnapshot();
      try {
        snapshot = await core.mcp.readMcpSnapshot(home);
      } catch (error) {
        if (!(error instanceof core.mcp.McpSnapshotError)) throw error;
        process.stderr.write(`cw: warning: ${error.safeMessage}\n`);
      }
      const failures = await core.mcp.readMcpRefreshFailures(home);
      const listed: ListedServer[] = Object.entries(servers).map(([name, server]) => {
        const status = core.mcp.mcpServerSnapshotStatus(name, server, snapshot);
        const entry = status === 'none' ? undefined : snapshot.servers[name];
        // A refresh removes a failed server's entry: without this, list would only say "none".
        const recorded = Object.hasOwn(failures, name) ? failures[name] : undefined;
        const failed =
          status !== 'fresh' &&
          recorded !== undefined &&
          recorded.fingerprint === core.mcp.mcpServerFingerprint(server);
        return {
          name: core.safeIdentifier(name),
          transport: core.mcp.mcpTransportOf(server),
          scope: scopes[name] ?? 'user',
          target: core.mcp.mcpServerTarget(server),
          enabled: !server.disabled,
          snapshot: failed ? 'failed' : status,
          failure: failed ? { code: recorded.code, detail: core.safeErrorText(recorded.detail) } : null,
          tool_count: entry === undefined ? null : entry.tools.length,
          tools: entry === undefined ? [] : entry.tools.map((tool) => core.safeIdentifier(tool.name)),
          refreshed_at: entry === undefined ? null : core.safeIdentifier(entry.refreshed_at),
        };
      });
      // A workspace .mcp.json waits for trust: its servers are named by count only until then. So does a
      // server whose workspace files changed since it was trusted.
      const waiting =
        project.file !== null && !project.trusted ? Object.keys(project.file.servers).length : project.changed.length;
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ servers: listed, untrusted_project_servers: waiting }, null, 2)}\n`);
        return;
      }
      if (waiting > 0)
        process.stdout.write(
          `The workspace's .mcp.json names ${waiting} MCP ${waiting === 1 ? 'server' : 'servers'} cw does not use until you trust it: cw mcp trust\n`,
        );
      if (listed.length === 0) {
        process.stdout.write('No MCP servers configured. Add one with: cw mcp add <name> -- <command> [args...]\n');
        return;
      }
      const { renderTable } = await import('../../render/route-view.js');
      process.stdout.write(
        renderTable(
          ['NAME', 'TRANSPORT', 'TARGET', 'ENABLED', 'SNAPSHOT', 'TOOLS'],
          listed.map((server) => [
            server.name,
            server.transport,
            server.target,
            server.enabled ? 'yes' : 'no',
            server.snapshot,
            server.tool_count === null ? '-' : String(server.tool_count),
          ]),
        ),
      );
      for (const server of listed) {
        if (server.enabled && server.failure !== null)
          process.stdout.write(
            `\n${server.name}: the last refresh failed: ${server.failure.code}: ${core.terminalSafe(server.failure.detail)} (cw mcp logs ${server.name} shows its stderr)`,
          );
      }
      if (listed.some((server) => server.enabled && server.failure !== null)) process.stdout.write('\n');
      const unready = listed.filter(
        (server) => server.enabled && server.snapshot !== 'fresh' && server.snapshot !== 'failed',
      ).length;
      if (unready > 0) {
        process.stdout.write(
          `\n${unready === 1 ? '1 enabled server has' : `${unready} enabled servers have`} no fresh snapshot: run cw mcp refresh so cw preview-request can show the exact request.\n`,
        );
      }
    } catch (error) {
      // A script that asked for JSON gets its failure as JSON too.
      await reportErrorAs(this, error, this.argv.includes('--json'));
    }
  }
}
