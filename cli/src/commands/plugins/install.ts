import type { PluginRegistry } from '@cw/core';
import { commands } from '@oclif/plugin-plugins';
import { reportError } from '../../render/report-error.js';

// The annotation keeps the declaration emit from naming plugin-plugins' internal types (TS2742).
const Base: (typeof commands)['plugins:install'] = commands['plugins:install'];

type Core = typeof import('@cw/core');
type OclifPlugin = ReturnType<InstanceType<typeof Base>['config']['getPluginsList']>[number];

/**
 * `cw plugins install`: plugin-plugins' command (npm, with npm's own registry configuration), then
 * cw's checks. A plugin made for another plugin API version, one published unbuilt, or one that does
 * not load is uninstalled again with a one-line error; otherwise cw prints what it registered.
 */
export default class PluginsInstall extends Base {
  static override summary = 'Install a cw plugin from npm, a tarball or a git URL, and show what it registered';
  static override description = `${Base.description ?? ''}

npm's own configuration picks the registry: npm_config_registry, an .npmrc, or a scope registry (@acme:registry=…). After installing, cw checks the plugin's cw.apiVersion and that its cw.register module exists, loads it, and prints the routes, dialects, tools, body refiners and hook taps it registered. A plugin that fails these checks is uninstalled again.`;
  static override examples = [
    { command: '<%= config.bin %> plugins install cw-provider-acme', description: 'Install from the npm registry.' },
    {
      command: '<%= config.bin %> plugins install @acme/cw-provider-acme@1.2.0',
      description: 'Install one version of a scoped plugin.',
    },
    {
      command: '<%= config.bin %> plugins install file:/absolute/path/cw-provider-acme-1.0.0.tgz',
      description: 'Install a tarball made by npm pack (an absolute file: path).',
    },
  ];
  // oclif's parse spreads the command class, which copies only its own statics: restate the inherited grammar.
  static override args = Base.args;
  static override flags = Base.flags;
  static override strict = false;

  override async run(): Promise<void> {
    const before = new Map(this.config.plugins);
    try {
      await super.run();
    } catch (error) {
      await reportError(this, error);
    }
    // plugin-plugins puts a fresh Plugin object in the map for every package it installed.
    const installed = [...this.config.plugins.values()].filter((plugin) => before.get(plugin.name) !== plugin);
    if (installed.length === 0) return;
    try {
      const core = await import('@cw/core');
      const { checkPluginPackage } = await import('../../plugin-packages/plugin-package-check.js');
      for (const plugin of installed) {
        const label = core.safePackageName(plugin.name);
        await this.undoIfRejected(plugin.name, () =>
          checkPluginPackage(plugin.root, (plugin.pjson as { cw?: unknown }).cw, label, core.pluginApiVersionRefusal),
        );
      }
      const { loadRegistry } = await import('../../entry/load-runtime.js');
      const registry = await loadRegistry(this.config);
      for (const plugin of installed) await this.undoIfRejected(plugin.name, () => loaded(core, registry, plugin));
      await this.report(core, registry, installed);
    } catch (error) {
      await reportError(this, error);
    }
  }

  /** Runs a check; when it throws, uninstalls the plugin first, so a rejected plugin is never left behind. */
  private async undoIfRejected(name: string, check: () => Promise<void>): Promise<void> {
    try {
      await check();
    } catch (error) {
      await this.config.runCommand('plugins:uninstall', [name]);
      throw error;
    }
  }

  private async report(core: Core, registry: PluginRegistry, installed: readonly OclifPlugin[]): Promise<void> {
    const names = new Set(installed.map((plugin) => plugin.name));
    const { renderPluginProblems } = await import('../../plugin-packages/render-plugin-problems.js');
    await renderPluginProblems(registry.problems.filter((problem) => names.has(problem.plugin)));
    const { renderPluginRegistrations } = await import('../../plugin-packages/render-plugin-registrations.js');
    for (const plugin of installed) {
      const isCwPlugin = (plugin.pjson as { cw?: unknown }).cw !== undefined;
      const text = await renderPluginRegistrations(core, registry, { ...plugin, isCwPlugin });
      this.log(text.trimEnd());
    }
  }
}

/** Throws when a cw plugin did not load at all: it would only warn on every later command. */
async function loaded(core: Core, registry: PluginRegistry, plugin: OclifPlugin): Promise<void> {
  if ((plugin.pjson as { cw?: unknown }).cw === undefined) return;
  if (registry.plugins.some((entry) => entry.name === plugin.name)) return;
  const { PluginPackageError } = await import('../../plugin-packages/plugin-package-check.js');
  const problem = registry.problems.find((entry) => entry.plugin === plugin.name);
  const why = problem === undefined ? '' : ` (${problem.code}): ${core.safeErrorText(problem.detail)}`;
  throw new PluginPackageError(`plugin ${core.safePackageName(plugin.name)} did not load${why}; cw uninstalled it`);
}
