import { Args, Command, Flags } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw config get <key>`: one config value, defaults filled in, secret-shaped strings withheld. */
export default class ConfigGet extends Command {
  static override summary = 'Print one config value';
  static override description =
    'Prints the value at a dotted key (routes.local.model, tools.allow[0], route_timeouts["my.route"]) as cw reads it, defaults filled in: a string as it is, anything else as JSON. A string shaped like a secret prints as <redacted>. permissions.allow includes the rules kept for the current workspace. A key that is not set exits 1. Keys: docs/config.md.';
  static override examples = [
    '<%= config.bin %> config get route',
    '<%= config.bin %> config get routes.local.model',
    '<%= config.bin %> config get tools --json',
  ];
  static override args = {
    key: Args.string({ required: true, description: 'A config key: a dotted path such as route or tools.deny.' }),
  };
  static override flags = {
    json: Flags.boolean({ description: 'Print the value as JSON, strings included.' }),
  };

  async run(): Promise<void> {
    try {
      const { args, flags } = await this.parse(ConfigGet);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const path = core.parseConfigKey(args.key);
      const field = core.formatConfigPath(path, core.configFieldNames());
      const known = core.knownFieldsAt(core.cwConfigSchema, path.slice(0, -1));
      const last = path[path.length - 1];
      if (known !== undefined && typeof last === 'string' && !known.includes(last)) {
        throw new core.ConfigKeyError(`${field} is not a config field; accepted: ${known.join(', ')}`);
      }
      const config = await core.loadConfig(cwHome());
      let value: unknown = config;
      if (path[0] === 'permissions') {
        // Rules kept for this workspace by answering "always here" count as config's own (docs/agent-loop.md).
        const kept = await core.readProjectPermissions(cwHome(), await core.workspaceRoot(config.workspace));
        value = {
          ...config,
          permissions: { ...config.permissions, allow: [...config.permissions.allow, ...kept] },
        };
      }
      for (const segment of path) {
        value =
          typeof value === 'object' && value !== null && Object.hasOwn(value, segment)
            ? (value as Record<string | number, unknown>)[segment]
            : undefined;
      }
      if (value === undefined) throw new core.ConfigError([`config.json: ${field}: not set`]);
      const shown = core.safeConfigValue(value);
      process.stdout.write(
        typeof shown === 'string' && !flags.json ? `${shown}\n` : `${JSON.stringify(shown, null, 2)}\n`,
      );
    } catch (error) {
      await reportError(this, error);
    }
  }
}
