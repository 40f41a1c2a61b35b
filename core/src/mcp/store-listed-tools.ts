import type { McpSnapshotServer } from './mcp-snapshot-state.js';
import { type McpSnapshotEntry, updateMcpSnapshot } from './mcp-snapshot-store.js';

/** Updates the stored snapshot for the servers whose listing differs from what it holds. */
export async function storeListedTools(home: string, live: readonly McpSnapshotServer[]): Promise<void> {
  await updateMcpSnapshot(home, (current) => {
    const servers: Record<string, McpSnapshotEntry> = { ...current.servers };
    for (const server of live) {
      const stored = Object.hasOwn(servers, server.name) ? servers[server.name] : undefined;
      const same =
        stored !== undefined &&
        stored.fingerprint === server.fingerprint &&
        JSON.stringify(stored.tools) === JSON.stringify(server.tools) &&
        JSON.stringify(stored.server) === JSON.stringify(server.server);
      if (!same) {
        servers[server.name] = {
          fingerprint: server.fingerprint,
          server: server.server,
          tools: [...server.tools],
          refreshed_at: server.refreshedAt,
        };
      }
    }
    return { version: 1, servers };
  });
}
