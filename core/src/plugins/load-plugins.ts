import { resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginApi, PluginApiV2, PluginDescriptor, RegisterPlugin } from './plugin-api.js';
import { pluginApiVersionRefusal } from './plugin-api-versions.js';
import { PluginRegistry, type PluginRegistrations } from './plugin-registry.js';

interface CwField {
  apiVersion?: unknown;
  register?: unknown;
}

/**
 * A plugin's entry module when the host already holds it (a built-in compiled into the host's own
 * bundle, docs/performance.md); undefined to import the entry file as usual.
 */
export type HeldEntry = (descriptor: PluginDescriptor) => unknown;

/**
 * Loads every plugin that declares a `cw` field, one at a time, collecting problems instead of
 * throwing: one broken plugin must not take the others, or the CLI, down with it. `held` hands over
 * entry modules the host already has; every check before the import is made all the same.
 */
export async function loadPlugins(
  descriptors: readonly PluginDescriptor[],
  registry = new PluginRegistry(),
  held?: HeldEntry,
): Promise<PluginRegistry> {
  // Built-ins first: route ids and dialect ids are first come, so a third party cannot take over a
  // built-in route (and with it the key variable the user set for it); the collision is its problem.
  const ordered = [
    ...descriptors.filter((entry) => entry.type === 'core'),
    ...descriptors.filter((entry) => entry.type !== 'core'),
  ];
  for (const descriptor of ordered) {
    await withOutputHeld(descriptor.name, registry, () => loadOne(descriptor, registry, held));
  }
  return registry;
}

/**
 * Holds back whatever a plugin writes to stdout or stderr while it loads: cw's stdout may be a JSON
 * document a script reads. What was written is reported as the plugin's problem, never printed.
 */
async function withOutputHeld(plugin: string, registry: PluginRegistry, load: () => Promise<void>): Promise<void> {
  const streams = [process.stdout, process.stderr] as const;
  const originals = streams.map((stream) => stream.write);
  const held = [0, 0];
  streams.forEach((stream, index) => {
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      held[index] = (held[index] ?? 0) + (typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength);
      const callback = rest.find((argument) => typeof argument === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof stream.write;
  });
  try {
    await load();
  } finally {
    streams.forEach((stream, index) => {
      stream.write = originals[index] as typeof stream.write;
    });
  }
  const [out = 0, err = 0] = held;
  if (out + err > 0) {
    registry.problems.push({
      plugin,
      code: 'wrote-output',
      detail: `wrote ${out} bytes to stdout and ${err} bytes to stderr while loading; cw discarded them`,
    });
  }
}

async function loadOne(descriptor: PluginDescriptor, registry: PluginRegistry, held?: HeldEntry): Promise<void> {
  const plugin = descriptor.name;
  const field = descriptor.cw as CwField | undefined;
  if (!field || typeof field !== 'object' || typeof field.register !== 'string') {
    registry.problems.push({ plugin, code: 'missing-cw-field', detail: 'package.json has no cw.register entry' });
    return;
  }
  const refusal = pluginApiVersionRefusal(field.apiVersion, 'the plugin');
  if (refusal !== null) {
    registry.problems.push({ plugin, code: 'api-version-mismatch', detail: `plugin ${refusal}` });
    return;
  }
  const apiVersion = field.apiVersion as number;
  const root = resolve(descriptor.root);
  const entry = resolve(root, field.register);
  // An entry outside the package folder would let package.json point cw at arbitrary code on disk.
  if (!entry.startsWith(root + sep)) {
    registry.problems.push({ plugin, code: 'import-failed', detail: 'cw.register points outside the package' });
    return;
  }
  let module: { register?: unknown; default?: unknown };
  try {
    module = ((held?.(descriptor) as typeof module | undefined) ??
      (await import(pathToFileURL(entry).href))) as typeof module;
  } catch (error) {
    registry.problems.push({ plugin, code: 'import-failed', detail: errorText(error) });
    return;
  }
  // ESM named export, ESM default export, or a CommonJS module.exports object.
  const fallback = module.default as { register?: unknown } | undefined;
  const register = (module.register ?? (typeof fallback === 'function' ? fallback : fallback?.register)) as
    | RegisterPlugin
    | undefined;
  if (typeof register !== 'function') {
    registry.problems.push({ plugin, code: 'no-register-export', detail: 'the entry exports no register function' });
    return;
  }
  const registered: PluginRegistrations = { routeIds: [], dialectIds: [], toolNames: [], refiners: [] };
  try {
    const api = registry.apiFor(plugin, registered);
    await register((apiVersion === 2 ? versionTwoApi(api) : api) as PluginApi);
  } catch (error) {
    registry.withdraw(plugin);
    registry.problems.push({ plugin, code: 'register-threw', detail: errorText(error) });
    return;
  }
  registry.plugins.push({
    name: plugin,
    version: descriptor.version,
    type: descriptor.type,
    apiVersion,
    ...registered,
  });
}

/**
 * The contract a version 2 plugin was written for: the same registrations and request hooks, bound
 * to the same registry, and no turn hooks, so it meets the API it was tested against.
 */
function versionTwoApi(api: PluginApi): PluginApiV2 {
  const { turn: _turn, ...requestHooks } = api.hooks;
  const { addNoticeKind: _notices, addGateReason: _reasons, ...rest } = api;
  return { ...rest, apiVersion: 2, hooks: requestHooks };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
