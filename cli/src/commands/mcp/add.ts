import { Args, Command, Flags } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

const USAGE =
  "Usage: cw mcp add <name> [--env NAME=VALUE]... [--cwd <dir>] -- <command> [args...]\n       cw mcp add <name> --url <url> [--header 'Name=VALUE']...";

/** `cw mcp add`: adds an MCP server to config.json, as `claude mcp add` does; it connects to nothing. */
export default class McpAdd extends Command {
  static override summary = 'Add an MCP server: a local command after --, or a remote streamable HTTP URL';
  static override description =
    "Writes the server into mcpServers in config.json (the other keys are kept). Secrets never go into the file: write ${env:NAME} in an --env or --header value and cw reads the variable only when it connects. A value that looks like a secret written out is refused. Nothing is started or contacted: run `cw mcp refresh <name>` to discover the server's tools.";
  static override usage = [
    'mcp add <name> [--env NAME=VALUE]... [--cwd <dir>] -- <command> [args...]',
    'mcp add <name> --url <url> [--header Name=VALUE]...',
  ];
  static override examples = [
    '<%= config.bin %> mcp add files -- npx -y @modelcontextprotocol/server-filesystem .',
    "<%= config.bin %> mcp add github --env 'GITHUB_PERSONAL_ACCESS_TOKEN=${env:GITHUB_TOKEN}' -- github-mcp-server stdio",
    "<%= config.bin %> mcp add docs --url https://mcp.example.com/mcp --header 'Authorization=Bearer ${env:DOCS_TOKEN}'",
  ];
  static override args = {
    name: Args.string({ required: true, description: 'The server name: 1 to 64 letters, digits, - or _.' }),
  };
  static override flags = {
    url: Flags.string({ description: 'A remote server reached over streamable HTTP (http or https).' }),
    env: Flags.string({
      multiple: true,
      multipleNonGreedy: true,
      description: "NAME=VALUE set in a local server's environment; VALUE may be ${env:OTHER}. Repeatable.",
    }),
    header: Flags.string({
      multiple: true,
      multipleNonGreedy: true,
      description: 'Name=VALUE sent to a remote server with every request; VALUE may hold ${env:NAME}. Repeatable.',
    }),
    cwd: Flags.string({ description: 'The folder a local server starts in (default: where cw runs).' }),
    scope: Flags.string({
      description:
        "Where the server is written: user (config.json in the cw home, the default) or project (the workspace's .mcp.json, shared with other agents).",
      options: ['user', 'project'],
      default: 'user',
    }),
  };
  // The words after `--` are the server's command line and are read from argv untouched.
  static override strict = false;

  async run(): Promise<void> {
    try {
      const { UsageError } = await import('../../flags/usage-error.js');
      const split = this.argv.indexOf('--');
      const ours = split === -1 ? this.argv : this.argv.slice(0, split);
      const commandLine = split === -1 ? [] : this.argv.slice(split + 1);
      const { args, flags, argv } = await this.parse(McpAdd, [...ours]);
      if (argv.length > 1) throw new UsageError('cw: the server command goes after --', USAGE);
      const entry: Record<string, unknown> = {};
      if (flags.url !== undefined) {
        if (commandLine.length > 0)
          throw new UsageError('cw: give either --url or a command after --, not both', USAGE);
        if (flags.env !== undefined || flags.cwd !== undefined) {
          throw new UsageError('cw: --env and --cwd are for local servers; a remote one takes --header', USAGE);
        }
        entry['url'] = flags.url;
        if (flags.header !== undefined) entry['headers'] = pairs(flags.header, '--header', UsageError);
      } else {
        const [command, ...commandArgs] = commandLine;
        if (command === undefined || command === '') {
          throw new UsageError('cw: give the server command after --, or --url for a remote server', USAGE);
        }
        if (flags.header !== undefined) {
          throw new UsageError('cw: --header is for remote servers; a local one takes --env', USAGE);
        }
        entry['command'] = command;
        if (commandArgs.length > 0) entry['args'] = commandArgs;
        if (flags.env !== undefined) entry['env'] = pairs(flags.env, '--env', UsageError);
        if (flags.cwd !== undefined) entry['cwd'] = flags.cwd;
      }
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      if (flags.scope === 'project') {
        const { workspace } = await core.mcp.readEffectiveMcpServers(home);
        await core.mcp.addProjectMcpServer(home, workspace, args.name, entry);
        const name = core.safeIdentifier(args.name);
        process.stdout.write(
          `Added MCP server ${name} to the workspace's .mcp.json. Discover its tools with: cw mcp refresh ${name}\n`,
        );
        return;
      }
      await core.mcp.addMcpServer(home, args.name, entry);
      const servers = await core.mcp.readMcpServers(home);
      const added = servers[args.name];
      const where =
        added === undefined ? '' : ` (${core.mcp.mcpTransportOf(added)}: ${core.mcp.mcpServerTarget(added)})`;
      const name = core.safeIdentifier(args.name);
      process.stdout.write(
        `Added MCP server ${name}${where} to config.json. Discover its tools with: cw mcp refresh ${name}\n`,
      );
    } catch (error) {
      await reportError(this, error);
    }
  }
}

/** `NAME=VALUE` words as a map, split at the first `=`. The error never repeats the word: it may be a secret. */
function pairs(
  words: readonly string[],
  flag: string,
  UsageError: new (reason: string, usage: string) => Error,
): Record<string, string> {
  const map: Record<string, string> = {};
  for (const word of words) {
    const at = word.indexOf('=');
    if (at <= 0) throw new UsageError(`cw: ${flag} takes NAME=VALUE`, USAGE);
    map[word.slice(0, at)] = word.slice(at + 1);
  }
  return map;
}
