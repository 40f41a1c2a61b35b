import type { McpServerConfig } from '../config/cw-config.js';
import { mcpServerFingerprint } from './mcp-server-fingerprint.js';
import type { McpSnapshot, McpSnapshotEntry, McpSnapshotTool } from './mcp-snapshot-store.js';

/** One enabled server whose snapshot entry matches its config: the tools a turn would offer from it. */
export interface McpSnapshotServer {
  readonly name: string;
  readonly fingerprint: string;
  readonly server: McpSnapshotEntry['server'];
  readonly tools: readonly McpSnapshotTool[];
  readonly refreshedAt: string;
}

/**
 * MCP tool state as far as it can be known without connecting: no enabled server; every enabled
 * server listed in the snapshot under its current fingerprint; or some enabled server missing or
 * stale. The counts are all the not-snapshottable case says: the caller words the detail, and server
 * names never go into it.
 */
export type McpSnapshotState =
  | { readonly kind: 'disabled' }
  | { readonly kind: 'snapshot'; readonly servers: readonly McpSnapshotServer[] }
  | { readonly kind: 'not-snapshottable'; readonly staleCount: number; readonly enabledCount: number };

/** How one configured server's snapshot entry stands: `fresh` (matches the config), `stale` (written for another config) or `none`. */
export type McpServerSnapshotStatus = 'fresh' | 'stale' | 'none';

/** Whether `snapshot` holds tools for `server` as it is configured now. */
export function mcpServerSnapshotStatus(
  name: string,
  server: McpServerConfig,
  snapshot: McpSnapshot,
): McpServerSnapshotStatus {
  const entry = Object.hasOwn(snapshot.servers, name) ? snapshot.servers[name] : undefined;
  if (entry === undefined) return 'none';
  return entry.fingerprint === mcpServerFingerprint(server) ? 'fresh' : 'stale';
}

/**
 * The MCP state a preview can rely on, from the config's servers and the stored snapshot. Pure: it
 * reads neither the disk nor the network. Servers come out sorted by name, so the same config and
 * snapshot always give the same state.
 */
export function mcpSnapshotState(
  servers: Readonly<Record<string, McpServerConfig>>,
  snapshot: McpSnapshot,
): McpSnapshotState {
  const enabled = Object.keys(servers)
    .filter((name) => servers[name]?.disabled === false)
    .sort();
  if (enabled.length === 0) return { kind: 'disabled' };
  const fresh: McpSnapshotServer[] = [];
  for (const name of enabled) {
    const server = servers[name];
    const entry = snapshot.servers[name];
    if (server === undefined || entry === undefined) continue;
    if (mcpServerSnapshotStatus(name, server, snapshot) !== 'fresh') continue;
    fresh.push({
      name,
      fingerprint: entry.fingerprint,
      server: entry.server,
      tools: entry.tools,
      refreshedAt: entry.refreshed_at,
    });
  }
  if (fresh.length === enabled.length) return { kind: 'snapshot', servers: fresh };
  return { kind: 'not-snapshottable', staleCount: enabled.length - fresh.length, enabledCount: enabled.length };
}
