import { Args, Command, Flags } from '@oclif/core';
import { reportErrorAs } from '../../render/report-error.js';

/** `cw mcp prompts [server]`: the prompts the enabled servers offer, with their arguments. */
export default class McpPrompts extends Command {
  static override summary = 'List the prompts the enabled MCP servers offer';
  static override description =
    'Starts or reaches every enabled server (or only the one named) at once, lists its prompts and stops it again. One line per prompt: server/name, its arguments (a * marks a required one) and its description. A server that fails is one redacted line. Exits 1 when any server failed.';
  static override examples = ['<%= config.bin %> mcp prompts', '<%= config.bin %> mcp prompts everything --json'];
  static override args = { server: Args.string({ required: false, description: 'Only this server.' }) };
  static override flags = { json: Flags.boolean({ description: 'Print the prompts as JSON.' }) };

  async run(): Promise<void> {
    let failed = 0;
    try {
      const { args, flags } = await this.parse(McpPrompts);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      const { servers } = await core.mcp.readEffectiveMcpServers(home);
      if (args.server !== undefined && !Object.hasOwn(servers, args.server)) {
        throw new core.mcp.McpConfigEditError(
          `no MCP server named ${core.safeIdentifier(args.server)} is configured (cw mcp list shows them)`,
        );
      }
      const listings = await core.mcp.listMcpPrompts({
        home,
        servers,
        workspace: await core.workspaceRoot((await core.loadConfig(home)).workspace),
        ...(args.server === undefined ? {} : { only: args.server }),
      });
      failed = listings.filter((listing) => !listing.ok).length;
      // Server text (descriptions) is shown as one safe line each; names as safe labels.
      const oneLine = (text: string): string => {
        const flat = core.terminalSafe(text).replace(/\s+/g, ' ').trim();
        return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
      };
      const shown = listings.map((listing) =>
        listing.ok
          ? {
              server: core.safeIdentifier(listing.server),
              ok: true,
              prompts: listing.prompts.map((prompt) => ({
                name: core.safeIdentifier(prompt.name),
                description: oneLine(prompt.description),
                arguments: prompt.arguments.map((argument) => ({
                  name: core.safeIdentifier(argument.name),
                  required: argument.required,
                  description: oneLine(argument.description),
                })),
              })),
            }
          : {
              server: core.safeIdentifier(listing.server),
              ok: false,
              error: { code: listing.code, detail: listing.detail },
            },
      );
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ servers: shown }, null, 2)}\n`);
        return;
      }
      for (const entry of shown) {
        if (!('prompts' in entry) || entry.prompts === undefined) {
          const error = 'error' in entry ? entry.error : undefined;
          process.stdout.write(`FAIL  ${entry.server}  ${error?.code}: ${core.terminalSafe(error?.detail ?? '')}\n`);
          continue;
        }
        if (entry.prompts.length === 0) process.stdout.write(`${entry.server}: no prompts\n`);
        for (const prompt of entry.prompts) {
          const argumentList = prompt.arguments.map((argument) => `${argument.name}${argument.required ? '*' : ''}`);
          process.stdout.write(
            `${entry.server}/${prompt.name}${argumentList.length > 0 ? ` (${argumentList.join(', ')})` : ''}${prompt.description ? `  ${prompt.description}` : ''}\n`,
          );
        }
      }
    } catch (error) {
      await reportErrorAs(this, error, this.argv.includes('--json'));
    }
    if (failed > 0) this.exit(1);
  }
}
