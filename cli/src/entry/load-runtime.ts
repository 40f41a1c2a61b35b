import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '@oclif/core';
import { CLI_DIST } from '../package-folder.js';
import type { Agent, CwSnapshot, HeldEntry, PluginDescriptor, PluginRegistry, SnapshotOverrides } from '@cw/core';

/** The loaded registry and snapshot every command that prepares a request needs. */
export interface Runtime {
  readonly home: string;
  readonly registry: PluginRegistry;
  readonly snapshot: CwSnapshot;
}

/**
 * What a runtime is loaded from: the plugins, in load order, and the default route (cli/package.json's
 * `cw.defaultRoute`). Commands take it from oclif's config (runtimeSourceOf); the oclif-free preview
 * entry reads the same files itself (plugin-descriptors-from-files.ts).
 */
export interface RuntimeSource {
  readonly descriptors: readonly PluginDescriptor[];
  readonly defaultRouteId: string;
  /** Entry modules the host already holds (the one-file bundle's built-ins), handed to loadPlugins. */
  readonly held?: HeldEntry;
}

/** The runtime source oclif's config describes. */
export function runtimeSourceOf(config: Config): RuntimeSource {
  return { descriptors: pluginDescriptors(config), defaultRouteId: defaultRouteOf(config.pjson) };
}

/** cli/package.json's `cw.defaultRoute`, or none. */
export function defaultRouteOf(pjson: unknown): string {
  return (pjson as { cw?: { defaultRoute?: string } } | undefined)?.cw?.defaultRoute ?? '';
}

/**
 * Turns oclif's plugin list into descriptors: built-in and third-party plugins load the same way.
 * oclif finishes loading plugins in whatever order their files arrive, so the built-ins are put in
 * the order cli/package.json lists them, ahead of installed and then linked ones in the order the
 * plugin data folder lists them: route and dialect ids are first come (docs/architecture.md), and
 * listings should not reshuffle from run to run. plugin-descriptors-from-files.ts gives this order too.
 */
export function pluginDescriptors(config: Config): PluginDescriptor[] {
  const listed = (config.pjson as { oclif?: { plugins?: unknown } }).oclif?.plugins;
  const order = new Map((Array.isArray(listed) ? listed : []).map((name, index) => [String(name), index] as const));
  const installed = installedOrder(config.dataDir);
  const rank = (descriptor: PluginDescriptor): number =>
    descriptor.type === 'core'
      ? (order.get(descriptor.name) ?? order.size)
      : order.size +
        1 +
        (descriptor.type === 'link' ? installed.size : 0) +
        (installed.get(descriptor.name) ?? installed.size);
  return config
    .getPluginsList()
    .filter((plugin) => (plugin.pjson as { cw?: unknown }).cw !== undefined && plugin.name !== config.pjson.name)
    .map(
      (plugin): PluginDescriptor => ({
        name: plugin.name,
        version: plugin.version,
        root: plugin.root,
        cw: (plugin.pjson as { cw?: unknown }).cw,
        type: plugin.type === 'link' ? 'link' : plugin.type === 'user' ? 'user' : 'core',
      }),
    )
    .sort((left, right) => rank(left) - rank(right));
}

/** Where each installed or linked plugin stands in the data folder's list; empty when it cannot be read. */
function installedOrder(dataDir: string): Map<string, number> {
  try {
    const pjson = JSON.parse(readFileSync(join(dataDir, 'package.json'), 'utf8')) as { oclif?: { plugins?: unknown } };
    const plugins = pjson.oclif?.plugins;
    return new Map(
      (Array.isArray(plugins) ? plugins : []).map((entry, index) => [
        String((entry as { name?: unknown }).name),
        index,
      ]),
    );
  } catch {
    return new Map();
  }
}

/** The registry of the plugins oclif's config lists. */
export async function loadRegistry(config: Config): Promise<PluginRegistry> {
  return loadRegistryFrom(pluginDescriptors(config));
}

/**
 * Loads the core lazily (it pulls in tapable) and the plugins the descriptors name, in their order,
 * with the core's own stages tapped and the schema checks recorded at build time in use. Every path
 * that loads plugins comes through here.
 */
export async function loadRegistryFrom(
  descriptors: readonly PluginDescriptor[],
  held?: HeldEntry,
): Promise<PluginRegistry> {
  const core = await import('@cw/core');
  await useBuiltChecks(core);
  const registry = await core.loadPlugins(descriptors, undefined, held);
  core.tapCoreStages(registry);
  return registry;
}

/**
 * Loads everything a request is prepared from. `overrides` are the command line's route, model,
 * reasoning and session choices: preview and send given the same flags plan the same request.
 */
export async function loadRuntime(source: RuntimeSource, overrides: SnapshotOverrides = {}): Promise<Runtime> {
  const registry = await loadRegistryFrom(source.descriptors, source.held);
  return { ...(await snapshotOf(source.defaultRouteId, registry, overrides)), registry };
}

/**
 * The agent every command that runs a turn drives (docs/embedding.md): the source's plugins, loaded
 * as loadRegistryFrom loads them, in the current folder and cw home.
 */
export async function agentFor(source: RuntimeSource): Promise<{ agent: Agent; registry: PluginRegistry }> {
  const registry = await loadRegistryFrom(source.descriptors, source.held);
  const core = await import('@cw/core');
  const agent = await core.createAgent({ registry, defaultRouteId: source.defaultRouteId, env: process.env });
  return { agent, registry };
}

/** The snapshot of the cw home for the current folder, with the command line's overrides. Reads only. */
async function snapshotOf(
  defaultRouteId: string,
  registry: PluginRegistry,
  overrides: SnapshotOverrides,
): Promise<{ home: string; snapshot: CwSnapshot }> {
  const core = await import('@cw/core');
  const { cwHome } = await import('@cw/core/home');
  const home = cwHome();
  // The working folder supplies AGENTS.md layers and the turn context (docs/project-context.md).
  const snapshot = await core.loadSnapshot({
    home,
    registry,
    defaultRouteId,
    cwd: process.cwd(),
    env: process.env,
    overrides,
  });
  return { home, snapshot };
}

/**
 * Hands the core the schema checks recorded when this CLI was built (scripts/record-checked-values.mjs),
 * so the built-in plugins' rows and an empty config are checked without loading zod. A file from
 * another core version, or none, changes nothing: every check then runs the schema.
 */
async function useBuiltChecks(core: typeof import('@cw/core')): Promise<void> {
  // Read synchronously: nothing else could run meanwhile, and a first promise-based read costs a
  // start more than the read itself.
  const { readFileSync } = await import('node:fs');
  try {
    const values = JSON.parse(readFileSync(join(CLI_DIST, 'checked-values.json'), 'utf8')) as { core?: unknown };
    if (values.core === core.coreVersion()) core.useCheckedValues(values);
  } catch {
    // No recorded checks (a build that skipped the recording): the schema answers every check.
  }
}
