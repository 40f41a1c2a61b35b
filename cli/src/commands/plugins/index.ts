import { Command, Flags } from '@oclif/core';
import { reportErrorAs } from '../../render/report-error.js';

/** `cw plugins`: every cw plugin loaded, built-ins (core) first; names, versions and kinds, never paths. */
export default class Plugins extends Command {
  static override summary = 'List the cw plugins loaded: built-ins (core), installed (user) and linked (link)';
  static override description =
    'Built-in plugins ship with cw and load through the same loader as installed ones. Install one with cw plugins install <package>; cw plugins inspect <plugin> shows what it registered. Docs: docs/plugin-authors.md.';
  static override examples = ['<%= config.bin %> plugins', '<%= config.bin %> plugins --json'];
  static override flags = {
    json: Flags.boolean({ summary: 'Print the list as JSON: name, version and kind of each plugin.' }),
    core: Flags.boolean({ summary: 'Accepted for oclif habit; built-ins are always listed.', hidden: true }),
  };

  async run(): Promise<void> {
    let json = this.argv.includes('--json');
    try {
      const { flags } = await this.parse(Plugins);
      json = flags.json;
      const core = await import('@cw/core');
      const { pluginDescriptors } = await import('../../entry/load-runtime.js');
      const order = { core: 0, user: 1, link: 2 } as const;
      const plugins = pluginDescriptors(this.config)
        .map((plugin) => ({
          name: core.safePackageName(plugin.name),
          version: core.safeIdentifier(plugin.version),
          kind: plugin.type,
        }))
        .sort((a, b) => order[a.kind] - order[b.kind] || a.name.localeCompare(b.name));
      if (json) {
        process.stdout.write(`${JSON.stringify({ plugins }, null, 2)}\n`);
        return;
      }
      const width = Math.max(...plugins.map((plugin) => plugin.name.length), 0);
      for (const plugin of plugins)
        process.stdout.write(`${plugin.name.padEnd(width)}  ${plugin.version}  (${plugin.kind})\n`);
    } catch (error) {
      await reportErrorAs(this, error, json);
    }
  }
}
