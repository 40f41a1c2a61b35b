import { Command, Flags } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw config path`: where config.json is, and every other folder cw keeps things in. */
export default class ConfigPath extends Command {
  static override summary = 'Print the path of config.json';
  static override description =
    'Prints the path of config.json in the cw home, for an editor or a script: "$EDITOR "$(cw config path)"". With --json, also the home, the sessions and plugin folders, and which setting chose each (docs/config.md). This is the one command that prints a path: asking for it is the point.';
  static override examples = ['<%= config.bin %> config path', '<%= config.bin %> config path --json'];
  static override flags = {
    json: Flags.boolean({ description: 'Print every folder cw uses, and why, as JSON.' }),
  };

  async run(): Promise<void> {
    try {
      const { flags } = await this.parse(ConfigPath);
      const { cwPaths } = await import('@cw/core/home');
      const { terminalSafe } = await import('@cw/core');
      const paths = cwPaths();
      if (!flags.json) {
        process.stdout.write(`${terminalSafe(paths.configFile)}\n`);
        return;
      }
      // bin/run.js sets CW_DATA_DIR from the home rules when it is unset; the rules say why.
      const derived = cwPaths({ ...process.env, CW_DATA_DIR: '' });
      const document = {
        home: paths.home,
        home_source: paths.homeSource,
        config_file: paths.configFile,
        sessions: paths.sessions,
        // Where oclif really keeps installed and linked plugins in this process.
        plugins: this.config.dataDir,
        plugins_source: this.config.dataDir === derived.plugins ? derived.pluginsSource : 'CW_DATA_DIR',
      };
      process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    } catch (error) {
      await reportError(this, error);
    }
  }
}
