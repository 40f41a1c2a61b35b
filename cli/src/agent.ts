import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Agent, AgentOptions } from '@cw/core';
import { loadRegistryFrom } from './entry/load-runtime.js';
import { runtimeSourceFromFiles } from './plugin-packages/plugin-descriptors-from-files.js';

// `@cw/cli/agent`: the agent as the cw command runs it, for hosts that embed cw (docs/embedding.md).
// It loads the plugins cw ships (and, given the data folder, the ones installed there) the way the
// command does, then hands them to the core's createAgent.

// The cli package folder: this file is in its dist folder.
const CLI_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Where the agent lives, as for createAgent, and which installed plugins it loads. */
export interface CwAgentOptions extends Omit<AgentOptions, 'registry' | 'plugins' | 'defaultRouteId'> {
  /**
   * The plugin data folder (the cw command's `CW_DATA_DIR`) whose installed and linked plugins load
   * after the built-ins; absent, the built-ins alone.
   */
  readonly dataDir?: string;
}

/** Creates the agent cw runs: the built-in plugins (and the data folder's), cw's default route. */
export async function createCwAgent(options: CwAgentOptions = {}): Promise<Agent> {
  const source = runtimeSourceFromFiles(CLI_ROOT, options.dataDir ?? null);
  if (source === undefined)
    throw new Error(
      'the plugin data folder holds plugins only the cw command can load (commands or hooks of their own); run them through cw',
    );
  const registry = await loadRegistryFrom(source.descriptors);
  const { createAgent } = await import('@cw/core');
  return createAgent({ ...options, registry, defaultRouteId: source.defaultRouteId });
}
