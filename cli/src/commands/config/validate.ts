import { Command, Flags } from '@oclif/core';
import { reportError } from '../../render/report-error.js';

/** `cw config validate`: checks config.json against the schema and the loaded plugins; lists every problem. */
export default class ConfigValidate extends Command {
  static override summary = 'Check config.json and list every problem in it';
  static override description =
    'Checks the syntax (JSON with comments and trailing commas), every field against the schema, each configured route against the loaded plugins, and that the selected route exists. Every problem is listed with its line and column, the field, what was found and what is accepted. Exits 0 when the config is valid, 1 when it is not. Reads only.';
  static override examples = ['<%= config.bin %> config validate', '<%= config.bin %> config validate --json'];
  static override flags = {
    json: Flags.boolean({
      description: 'Print {"valid": ..., "problems": [{line, column, field, message}]} on stdout.',
    }),
  };

  async run(): Promise<void> {
    let invalid = false;
    try {
      const { flags } = await this.parse(ConfigValidate);
      const core = await import('@cw/core');
      const { cwHome } = await import('@cw/core/home');
      const home = cwHome();
      const text = await core.readConfigText(home);
      let problems: readonly import('@cw/core').ConfigProblem[] = [];
      let warnings: string[] = [];
      if (text !== null) {
        const { loadRegistry } = await import('../../entry/load-runtime.js');
        const registry = await loadRegistry(this.config);
        const checked = await core.checkConfigText(text, { dialectIds: registry.dialectIds });
        const defaultRoute = (this.config.pjson as { cw?: { defaultRoute?: string } }).cw?.defaultRoute ?? '';
        problems = checked.ok
          ? core.configRouteProblems(checked.config, checked.parsed, registry, defaultRoute)
          : checked.problems;
        if (checked.ok)
          warnings = core.permissionRuleWarnings(
            checked.config,
            registry.toolCatalog.map((tool) => tool.name),
          );
      }
      // Warnings never fail validation: a rule naming nothing is allowed, just most likely a typo.
      if (!flags.json)
        for (const warning of warnings) process.stderr.write(`cw: warning: ${core.terminalSafe(warning)}\n`);
      if (flags.json) {
        const document = {
          valid: problems.length === 0,
          file_exists: text !== null,
          warnings,
          problems: problems.map((problem) => ({
            line: problem.position?.line ?? null,
            column: problem.position?.column ?? null,
            field: problem.field,
            message: problem.message,
          })),
        };
        process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
        invalid = problems.length > 0;
      } else if (problems.length > 0) {
        throw new core.ConfigError(problems.map(core.formatConfigProblem));
      } else {
        process.stdout.write(
          text === null ? 'No config.json in the cw home: the built-in defaults apply.\n' : 'config.json is valid.\n',
        );
      }
    } catch (error) {
      await reportError(this, error);
    }
    // Outside the try: oclif's exit is a thrown error, which must not be reported as a failure.
    if (invalid) this.exit(1);
  }
}
