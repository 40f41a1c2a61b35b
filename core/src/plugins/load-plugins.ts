import { resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PLUGIN_API_VERSION, type PluginDescriptor, type RegisterPlugin } from './plugin-api.js';
import { PluginRegistry } from './plugin-registry.js';

interface CwField {
  apiVersion?: unknown;
  register?: unknown;
}

/**
 * Loads every plugin that declares a `cw` field, one at a time, collecting problems instead of
 * throwing: one broken plugin must not take the others, or the CLI, down with it.
 */
export async function loadPlugins(
  descriptors: readonly PluginDescriptor[],
  registry = new PluginRegistry(),
): Promise<PluginRegistry> {
  for (const descriptor of descriptors) {
    await loadOne(descriptor, registry);
  }
  return registry;
}

async function loadOne(descriptor: PluginDescriptor, registry: PluginRegistry): Promise<void> {
  const plugin = descriptor.name;
  const field = descriptor.cw as CwField | undefined;
  if (!field || typeof field !== 'object' || typeof field.register !== 'string') {
    registry.problems.push({ plugin, code: 'missing-cw-field', detail: 'package.json has no cw.register entry' });
    return;
  }
  if (field.apiVersion !== PLUGIN_API_VERSION) {
    registry.problems.push({
      plugin,
      code: 'api-version-mismatch',
      detail: `plugin declares cw.apiVersion ${String(field.apiVersion)}, this cw speaks ${PLUGIN_API_VERSION}`,
    });
    return;
  }
  const root = resolve(descriptor.root);
  const entry = resolve(root, field.register);
  // An entry outside the package folder would let package.json point cw at arbitrary code on disk.
  if (!entry.startsWith(root + sep)) {
    registry.problems.push({ plugin, code: 'import-failed', detail: 'cw.register points outside the package' });
    return;
  }
  let module: { register?: unknown; default?: unknown };
  try {
    module = (await import(pathToFileURL(entry).href)) as typeof module;
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
  const routeIds: string[] = [];
  try {
    await register(registry.apiFor(plugin, routeIds));
  } catch (error) {
    registry.problems.push({ plugin, code: 'register-threw', detail: errorText(error) });
    return;
  }
  registry.plugins.push({ name: plugin, version: descriptor.version, type: descriptor.type, routeIds });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
