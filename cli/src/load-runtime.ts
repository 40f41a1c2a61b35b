import type { Config } from '@oclif/core';
import type { CwSnapshot, PluginDescriptor, PluginRegistry } from '@cw/core';

/** The loaded registry and snapshot every command that prepares a request needs. */
export interface Runtime {
  readonly home: string;
  readonly registry: PluginRegistry;
  readonly snapshot: CwSnapshot;
}

/** Turns oclif's plugin list into descriptors: built-in and third-party plugins load the same way. */
export function pluginDescriptors(config: Config): PluginDescriptor[] {
  return config
    .getPluginsList()
    .filter((plugin) => (plugin.pjson as { cw?: unknown }).cw !== undefined && plugin.name !== config.pjson.name)
    .map((plugin) => ({
      name: plugin.name,
      version: plugin.version,
      root: plugin.root,
      cw: (plugin.pjson as { cw?: unknown }).cw,
      type: plugin.type === 'link' ? 'link' : plugin.type === 'user' ? 'user' : 'core',
    }));
}

/** Loads the core lazily (it pulls in zod and tapable), the plugins, and a read-only snapshot. */
export async function loadRegistry(config: Config): Promise<PluginRegistry> {
  const core = await import('@cw/core');
  const registry = await core.loadPlugins(pluginDescriptors(config));
  core.tapCoreStages(registry);
  return registry;
}

/** Loads everything a request is prepared from. */
export async function loadRuntime(config: Config): Promise<Runtime> {
  const core = await import('@cw/core');
  const registry = await loadRegistry(config);
  const home = core.cwHome();
  const defaultRouteId = (config.pjson as { cw?: { defaultRoute?: string } }).cw?.defaultRoute ?? '';
  // The working folder supplies AGENTS.md layers and the turn context (docs/project-context.md).
  const snapshot = await core.loadSnapshot({ home, registry, defaultRouteId, cwd: process.cwd(), env: process.env });
  return { home, registry, snapshot };
}
