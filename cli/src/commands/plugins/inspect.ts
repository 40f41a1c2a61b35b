import type { PluginRegistry } from '@cw/core';
import { commands } from '@oclif/plugin-plugins';
import { reportErrorAs } from '../../render/report-error.js';
import type { InspectedPlugin } from '../../plugin-packages/render-plugin-tree.js';

// The annotation keeps the declaration emit from naming plugin-plugins' internal types (TS2742).
const Base: (typeof commands)['plugins:inspect'] = commands['plugins:inspect'];

type Core = typeof import('@cw/core');

// A plain semver range (`^4.14.0`, `~1.2`, `>=2`) is shown as written; anything else (a path, a URL) is redacted.
const SEMVER_RANGE = /^(?:\^|~|>=?|<=?|=)?[0-9]+(?:\.[0-9x*]+){0,2}(?:-[0-9A-Za-z.]+)?$/;

function versionRange(core: Core, range: string): string {
  return SEMVER_RANGE.test(range) ? range : core.safeIdentifier(range);
}
// The plugin objects oclif keeps are its Plugin class, which is what the inherited helpers take.
type OclifPlugin = ReturnType<InstanceType<typeof Base>['findPlugin']>;

/**
 * `cw plugins:inspect`: plugin-plugins' command, extended. It shows the same package facts (name,
 * version, tag, commands, dependencies) but never a path on disk, and adds what the plugin gave cw:
 * the capability rows it registered, with their provenance, and any problem loading it.
 */
export default class PluginsInspect extends Base {
  static override summary = 'Show a plugin: its package facts and what it registered with cw';
  static override description =
    'Displays what oclif knows about a plugin (version, commands, dependencies; no paths) and, for cw plugins, every route the plugin registered with its dialect, shape and provenance, its dialects, tools, body refiners and hook taps, and any problem that kept it from loading. A scoped built-in can be named without its scope (provider-deepseek).';
  static override examples = [
    '<%= config.bin %> plugins:inspect @cw/provider-deepseek',
    '<%= config.bin %> plugins inspect provider-moonshot --json',
  ];

  // oclif's parse spreads the command class, which copies only its own statics: restate the inherited grammar.
  static override args = Base.args;
  static override flags = Base.flags;
  static override strict = false;
  static override enableJsonFlag = true;

  /** cw prints its own redacted JSON: oclif's would be the raw plugin object, absolute paths included. */
  override jsonEnabled(): boolean {
    return false;
  }

  override async run(): Promise<never[]> {
    try {
      const { argv, flags } = await this.parse(PluginsInspect);
      const core = await import('@cw/core');
      const { loadRegistry } = await import('../../entry/load-runtime.js');
      const registry = await loadRegistry(this.config);
      const inspected: InspectedPlugin[] = [];
      for (const requested of argv as string[])
        inspected.push(await this.describe(core, registry, this.pluginNamed(requested)));
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(inspected, null, 2)}\n`);
      } else {
        const { renderPluginTree } = await import('../../plugin-packages/render-plugin-tree.js');
        for (const plugin of inspected) process.stdout.write(renderPluginTree(plugin));
      }
    } catch (error) {
      // A script that asked for JSON gets its failure as JSON too.
      await reportErrorAs(this, error, this.argv.includes('--json'));
    }
    return [];
  }

  /** oclif's lookup by exact name, then the same name in cw's scope, so `provider-deepseek` finds `@cw/provider-deepseek`. */
  private pluginNamed(requested: string): OclifPlugin {
    const name = requested === '.' ? this.config.pjson.name : requested;
    const scoped = name.startsWith('@') ? null : `@cw/${name}`;
    const found = this.config.getPluginsList().find((plugin) => plugin.name === name || plugin.name === scoped) as
      | OclifPlugin
      | undefined;
    return found ?? this.findPlugin(name);
  }

  private async describe(core: Core, registry: PluginRegistry, plugin: OclifPlugin): Promise<InspectedPlugin> {
    const { routeView } = await import('../../render/route-view.js');
    const { hookTapCounts } = await import('../../plugin-packages/render-plugin-registrations.js');
    const dependencies: Record<string, { from: string | null; version: string }> = {};
    for (const dependency of Object.keys(plugin.pjson.dependencies ?? {}).sort()) {
      const { version } = await this.findDep(plugin, dependency);
      if (version === null) continue;
      const from = plugin.pjson.dependencies?.[dependency];
      dependencies[core.safePackageName(dependency)] = {
        from: from === undefined ? null : versionRange(core, from),
        version: core.safeIdentifier(version),
      };
    }
    const cwField = (plugin.pjson as { cw?: { apiVersion?: unknown } }).cw;
    const loaded = registry.plugins.find((entry) => entry.name === plugin.name);
    return {
      name: core.safePackageName(plugin.name),
      version: core.safeIdentifier(plugin.version),
      type: plugin.type,
      tag: plugin.tag === undefined ? null : core.safeIdentifier(plugin.tag),
      commands: [...plugin.commandIDs].sort().map(core.safeIdentifier),
      dependencies,
      cw:
        cwField === undefined
          ? null
          : {
              api_version: typeof cwField.apiVersion === 'number' ? cwField.apiVersion : null,
              api_version_served: core.pluginApiVersionRefusal(cwField.apiVersion, '') === null,
              routes: registry.rows
                .filter((row) => row.plugin === plugin.name)
                .map((row) => routeView(core, row, 'plugin-row')),
              dialects: (loaded?.dialectIds ?? []).map(core.safeIdentifier),
              body_refiners: (loaded?.refiners ?? []).map((refiner) => ({
                route_ids: (refiner.match.routeIds ?? []).map(core.safeIdentifier),
                route_shapes: (refiner.match.routeShapes ?? []).map(core.safeIdentifier),
                stage: refiner.stage,
              })),
              tools: (loaded?.toolNames ?? []).map(core.safeIdentifier),
              hook_taps: hookTapCounts(registry, plugin.name),
              problems: registry.problems
                .filter((problem) => problem.plugin === plugin.name)
                .map((problem) => ({ code: problem.code, detail: core.safeErrorText(problem.detail) })),
            },
    };
  }
}
