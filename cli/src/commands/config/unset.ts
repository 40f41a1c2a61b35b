import { Args, Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw config unset <key>`: removes one value from config.json, so its default applies again. */
export default class ConfigUnset extends Command {
  static override summary = 'Remove one config value, keeping comments and formatting';
  static override description =
    'Removes the value at a dotted key, so its default applies again. The result is checked as cw config set checks it; the rest of the file is kept as written.';
  static override examples = ['<%= config.bin %> config unset model', '<%= config.bin %> config unset routes.local'];
  static override args = {
    key: Args.string({ required: true, description: 'A config key: a dotted path such as route or tools.deny.' }),
  };

  async run(): Promise<void> {
    try {
      const { args } = await this.parse(ConfigUnset);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const path = core.parseConfigKey(args.key);
      const field = core.formatConfigPath(path, core.configFieldNames());
      let present = false;
      await core.editConfigFile(cwHome(), (current) => {
        present = valueAt(current, path) !== undefined;
        return present ? [{ path, value: undefined }] : [];
      });
      process.stdout.write(
        present ? `Removed ${field} from config.json.\n` : `${field} was not set; nothing changed.\n`,
      );
    } catch (error) {
      await reportError(this, error);
    }
  }
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}
