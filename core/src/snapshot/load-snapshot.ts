import { loadConfig } from '../config/cw-config.js';
import type { PluginRegistry } from '../plugins/plugin-registry.js';
import { tapRowTable } from '../route/resolve-route.js';
import { readSession } from '../state/session-store.js';
import { BUILTIN_TOOLS } from '../tools/builtin-tools.js';
import { tapProjectionEngine } from '../tools/project-tools.js';
import { NOTHING_PENDING, type CwSnapshot, type McpState } from './snapshot.js';

const DEFAULT_SESSION = 'default';

/** Taps the core's own stages into a registry's hooks; done once per process, before any request. */
export function tapCoreStages(registry: PluginRegistry): void {
  tapRowTable(registry.hooks);
  tapProjectionEngine(registry.hooks);
}

/** Reads config and session from the cw home into a snapshot. Reads only; creates nothing on disk. */
export async function loadSnapshot(options: {
  home: string;
  registry: PluginRegistry;
  defaultRouteId: string;
}): Promise<CwSnapshot> {
  const config = await loadConfig(options.home);
  const sessionName = config.session ?? DEFAULT_SESSION;
  const messages = await readSession(options.home, sessionName);
  const enabledServers = Object.values(config.mcpServers).filter((server) => !server.disabled).length;
  // No MCP snapshot store yet: configured servers mean a real turn would connect and discover tools.
  const mcp: McpState =
    enabledServers === 0
      ? { kind: 'disabled' }
      : { kind: 'not-snapshottable', detail: `${enabledServers} enabled MCP servers are not connected yet` };
  return {
    config,
    registry: options.registry,
    defaultRouteId: options.defaultRouteId,
    session: { name: sessionName, messages },
    catalog: BUILTIN_TOOLS,
    mcp,
    pending: NOTHING_PENDING,
  };
}
