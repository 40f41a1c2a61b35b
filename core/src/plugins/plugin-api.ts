import type { CoreHooks } from '../hooks.js';
import type { CapabilityRowInput } from '../route/capability-row.js';

/** The plugin contract version this core speaks. A plugin declaring another version is not loaded. */
export const PLUGIN_API_VERSION = 1;

/** What a plugin's `register` receives: the core's hooks and a way to add capability rows. */
export interface PluginApi {
  readonly apiVersion: typeof PLUGIN_API_VERSION;
  /** The package name of the plugin being registered; use it as the tap name. */
  readonly plugin: string;
  readonly hooks: CoreHooks;
  /** Adds one route. An invalid row is rejected with a diagnostic; the plugin's other rows still load. */
  addRoute(row: CapabilityRowInput): void;
}

/** The function a plugin exports as `register`. */
export type RegisterPlugin = (api: PluginApi) => void | Promise<void>;

/** A plugin package as the host found it: oclif's plugin list, or a folder in tests. */
export interface PluginDescriptor {
  readonly name: string;
  readonly version: string;
  /** Absolute folder of the package (never printed). */
  readonly root: string;
  /** The package's `cw` field from package.json. */
  readonly cw: unknown;
  /** Whether the host ships the plugin or the user installed or linked it. */
  readonly type: 'core' | 'user' | 'link';
}
