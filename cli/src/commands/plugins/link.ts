import { resolve } from 'node:path';
import { commands } from '@oclif/plugin-plugins';
import { reportError } from '../../render/report-error.js';

// The annotation keeps the declaration emit from naming plugin-plugins' internal types (TS2742).
const Base: (typeof commands)['plugins:link'] = commands['plugins:link'];

/**
 * `cw plugins link`: cw's checks first, then plugin-plugins' command. A folder that is not built, or
 * a plugin made for another plugin API version, is a one-line error and nothing is linked. After
 * linking, cw prints what the plugin registered; load problems are warnings, since a linked plugin
 * is one being worked on.
 */
export default class PluginsLink extends Base {
  static override summary = 'Link a plugin folder into cw for development, and show what it registered';
  static override examples = ['<%= config.bin %> plugins link /absolute/path/to/cw-provider-acme --no-install'];
  // oclif's parse spreads the command class, which copies only its own statics: restate the inherited grammar.
  static override args = Base.args;
  static override flags = Base.flags;

  override async run(): Promise<void> {
    try {
      const { args } = await this.parse(PluginsLink);
      const root = resolve(args.path);
      const core = await import('@cw/core');
      const { checkPluginPackage, readPluginPackage } = await import('../../plugin-packages/plugin-package-check.js');
      const facts = await readPluginPackage(root);
      await checkPluginPackage(root, facts.cw, core.safePackageName(facts.name), core.pluginApiVersionRefusal);
      await super.run();

      const { pluginDescriptors } = await import('../../entry/load-runtime.js');
      const others = pluginDescriptors(this.config).filter((descriptor) => descriptor.name !== facts.name);
      const isCwPlugin = facts.cw !== undefined;
      const linked = isCwPlugin ? [{ ...facts, root, type: 'link' as const }] : [];
      const registry = await core.loadPlugins([...others, ...linked]);
      core.tapCoreStages(registry);
      const { renderPluginProblems } = await import('../../plugin-packages/render-plugin-problems.js');
      await renderPluginProblems(registry.problems.filter((problem) => problem.plugin === facts.name));
      const { renderPluginRegistrations } = await import('../../plugin-packages/render-plugin-registrations.js');
      this.log((await renderPluginRegistrations(core, registry, { ...facts, isCwPlugin })).trimEnd());
    } catch (error) {
      await reportError(this, error);
    }
  }
}
