import { join, resolve } from 'node:path';
import { Args, Command, Flags } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/**
 * `cw plugins new <name>`: writes a provider-route plugin project from the template this cw ships,
 * with the @cw packages it builds and tests against packed inside it, so `npm install` asks no
 * registry for them (docs/plugin-authors.md, "Start a plugin"). Asks nothing: every value is a flag
 * or derived from the name.
 */
export default class PluginsNew extends Command {
  static override summary = 'Write a new provider-route plugin project, ready for npm install && npm test';
  static override description =
    'Writes the plugin template shipped with cw into ./<name> (without its @scope), with the route id, provider, endpoint and key variable filled in, and the @cw packages it needs as tarballs in cw-packages/, so npm install needs a registry only for third-party tools (typescript, vitest, esbuild). Refuses a folder that is not empty. Docs: docs/plugin-authors.md.';
  static override examples = [
    '<%= config.bin %> plugins new cw-provider-acme',
    '<%= config.bin %> plugins new @acme/cw-provider-acme --route-id acme-chat --base-url https://api.acme.example/v1 --key-env ACME_API_KEY',
  ];
  static override args = {
    name: Args.string({ required: true, description: 'The npm package name of the plugin, e.g. cw-provider-acme.' }),
  };
  static override flags = {
    'route-id': Flags.string({ summary: 'The route id users select (default: the name without cw-provider-).' }),
    dialect: Flags.string({ summary: 'The wire dialect of the route (default and, for now, only: chat-completions).' }),
    'provider-display': Flags.string({ summary: 'The provider name people read (default: from the name).' }),
    'base-url': Flags.string({ summary: 'The endpoint base URL (default: a placeholder under .example).' }),
    'key-env': Flags.string({
      summary: 'The environment variable that holds the API key (default: <PROVIDER>_API_KEY).',
    }),
    dir: Flags.string({ summary: 'The folder to write into, new or empty (default: ./<name without scope>).' }),
  };

  async run(): Promise<void> {
    try {
      const { args, flags } = await this.parse(PluginsNew);
      const { scaffoldOptions, unscopedName } = await import('../../new-plugin/scaffold-options.js');
      const options = scaffoldOptions(args.name, {
        routeId: flags['route-id'],
        dialect: flags.dialect,
        providerDisplay: flags['provider-display'],
        baseUrl: flags['base-url'],
        keyEnv: flags['key-env'],
      });
      const { readScaffold, writePluginScaffold } = await import('../../new-plugin/write-plugin-scaffold.js');
      const source = await readScaffold(join(this.config.root, 'dist', 'plugin-scaffold'));
      const folderName = unscopedName(options.packageName);
      await writePluginScaffold(source, options, resolve(flags.dir ?? folderName));
      const core = await import('@cw/core');
      const enter = flags.dir === undefined ? `cd ${core.safePackageName(folderName)} && ` : '';
      this.log(
        [
          `wrote ${core.safePackageName(options.packageName)}: route ${core.safeIdentifier(options.routeId)} (${options.dialect}), key in ${core.safeEnvVarName(options.keyEnv)}`,
          `next: ${enter}npm install && npm test`,
          'then edit src/example-capability-rows.ts with your provider’s facts (docs/capability-rows.md)',
        ].join('\n'),
      );
    } catch (error) {
      await reportError(this, error);
    }
  }
}
