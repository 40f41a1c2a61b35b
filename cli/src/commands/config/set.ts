import { Args, Command } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw config set <key> <value>`: changes one value in config.json, keeping its comments and layout. */
export default class ConfigSet extends Command {
  static override summary = 'Set one config value, keeping comments and formatting';
  static override description =
    'Writes the value at a dotted key. The value is read as JSON when it parses as JSON (30, true, ["read_file"], "quoted"), else as a string (local, gpt-4.1). The whole config is checked first: an invalid result is refused with every problem listed and config.json is left as it was. Comments, order and indentation elsewhere in the file are kept; the write is atomic. A custom route can be written field by field (provider, dialect, base_url, model): until it has all four it is saved, and using it says what it still needs. Keys: docs/config.md.';
  static override examples = [
    '<%= config.bin %> config set route local',
    '<%= config.bin %> config set max_steps 40',
    '<%= config.bin %> config set tools.deny \'["shell"]\'',
    '<%= config.bin %> config set routes.local.model qwen3-coder',
    '<%= config.bin %> config set routes.box.provider custom',
  ];
  static override args = {
    key: Args.string({ required: true, description: 'A config key: a dotted path such as route or tools.deny.' }),
    value: Args.string({ required: true, description: 'The value: JSON, or else a plain string.' }),
  };

  async run(): Promise<void> {
    try {
      const { args } = await this.parse(ConfigSet);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const path = core.parseConfigKey(args.key);
      const { loadRegistry } = await import('../../entry/load-runtime.js');
      // The loaded plugins' dialects, so a wrong dialect is answered with the ones that exist.
      const registry = await loadRegistry(this.config);
      const value = readValue(args.value);
      const field = core.formatConfigPath(path, core.configFieldNames());
      const defaultRoute = (this.config.pjson as { cw?: { defaultRoute?: string } }).cw?.defaultRoute ?? '';
      const written = await core.editConfigFile(cwHome(), () => [{ path, value }], {
        dialectIds: registry.dialectIds,
        // Routes that must resolve: only problems at the field set (or around it) refuse the change,
        // so one broken route elsewhere does not block every other edit.
        moreProblems: (config, parsed) =>
          core
            .configRouteProblems(config, parsed, registry, defaultRoute)
            .filter((problem) => problem.field !== null && related(problem.field, field)),
      });
      process.stdout.write(`Set ${field} in config.json.\n`);
      // A route written field by field: say what it still needs before a turn can use it.
      const routeId = path[0] === 'routes' && typeof path[1] === 'string' ? path[1] : undefined;
      const missing = routeId === undefined ? undefined : written.incompleteRoutes?.[routeId];
      if (routeId !== undefined && missing !== undefined) {
        const route = core.formatConfigPath(['routes', routeId], core.configFieldNames());
        process.stdout.write(`${route} is not complete yet: it still needs ${missing.join(', ')}.\n`);
      }
    } catch (error) {
      await reportError(this, error);
    }
  }
}

// JSON when it is JSON, so numbers, booleans, arrays and objects need no extra flag; else the text.
function readValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function related(a: string, b: string): boolean {
  const within = (inner: string, outer: string): boolean =>
    inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return within(a, b) || within(b, a);
}
