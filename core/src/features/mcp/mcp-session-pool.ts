import type { McpServerConfig } from '../../config/cw-config.js';
import { type ConnectMcpServerOptions, connectMcpServer, type McpConnection } from '../../mcp/connect-mcp-server.js';
import { mcpServerFingerprint } from '../../mcp/mcp-server-fingerprint.js';
import { storeListedTools } from '../../mcp/store-listed-tools.js';
import type { SessionScope } from '../../turn/turn-hooks.js';

/** How one MCP server of an interactive session stands: not started yet, starting, up, or failed to start. */
export type McpServerRunState = 'not-started' | 'starting' | 'running' | 'failed';

/** The MCP servers one session keeps up across its turns (docs/mcp.md): each started on first use, all closed with the scope. */
export interface McpSessionPool {
  /** The open connection to `name` as configured now; started (once) on the first call. */
  connect(name: string, server: McpServerConfig, options: ConnectMcpServerOptions): Promise<McpConnection>;
  /** The state of `name` as configured now. */
  state(name: string, server: McpServerConfig): McpServerRunState;
}

/** Where the MCP feature keeps its pool in a session scope. */
export const MCP_POOL_KEY = 'mcp';

/** The session's pool, made the first time and closed with the scope. */
export function mcpSessionPool(scope: SessionScope): McpSessionPool {
  return scope.keep(MCP_POOL_KEY, () => {
    const pool = createMcpPool();
    scope.onClose(pool.closeAll);
    return pool;
  });
}

/** The MCP servers' states, when the session has started any: for a host's `/mcp`. */
export function mcpSessionStates(
  scope: SessionScope,
  servers: Readonly<Record<string, McpServerConfig>>,
): { readonly name: string; readonly state: McpServerRunState }[] {
  const pool = scope.peek<McpSessionPool>(MCP_POOL_KEY);
  return Object.keys(servers)
    .sort()
    .map((name) => ({
      name,
      state: pool === undefined ? 'not-started' : pool.state(name, servers[name] as McpServerConfig),
    }));
}

/** A pool of its own, for one send: the caller closes it when the send ends. */
export function createMcpPool(): McpSessionPool & { closeAll(): Promise<void> } {
  // Keyed by name and fingerprint: a server whose config changed is another server.
  const entries = new Map<string, { state: McpServerRunState; connection: Promise<McpConnection> }>();
  // Re-listings a server's tools/list_changed started: finished before the pool closes its connections.
  const relistings = new Set<Promise<void>>();
  const keyOf = (name: string, server: McpServerConfig): string => `${name}\u0000${mcpServerFingerprint(server)}`;
  return {
    connect(name, server, options) {
      const key = keyOf(name, server);
      const known = entries.get(key);
      if (known !== undefined && known.state !== 'failed') return known.connection;
      const home = options?.home;
      const entry: { state: McpServerRunState; connection: Promise<McpConnection> } = {
        state: 'starting',
        connection: connectMcpServer(name, server, {
          ...(options?.env ? { env: options.env } : {}),
          ...(options?.commandEnv ? { commandEnv: options.commandEnv } : {}),
          ...(options?.filesUnchanged ? { filesUnchanged: options.filesUnchanged } : {}),
          ...(home ? { home } : {}),
          ...(options?.signal ? { signal: options.signal } : {}),
          ...(options?.sandbox ? { sandbox: options.sandbox } : {}),
          ...(options?.workspace ? { workspace: options.workspace } : {}),
          // The stored snapshot follows what a running server now lists, so the next turn and the
          // next preview offer its new tools (docs/mcp.md, "When servers start").
          ...(home
            ? {
                onToolsChanged: () => {
                  const relisting = relist(name, server, entry.connection, home);
                  relistings.add(relisting);
                  void relisting.finally(() => relistings.delete(relisting));
                },
              }
            : {}),
        }),
      };
      entries.set(key, entry);
      entry.connection.then(
        () => {
          entry.state = 'running';
        },
        () => {
          // A failed start is tried again on the next call: the server may have been fixed meanwhile.
          entry.state = 'failed';
        },
      );
      return entry.connection;
    },
    state(name, server) {
      return entries.get(keyOf(name, server))?.state ?? 'not-started';
    },
    async closeAll() {
      await Promise.all([...relistings]);
      const open = [...entries.values()];
      entries.clear();
      await Promise.all(
        open.map((entry) =>
          entry.connection.then(
            (connection) => connection.close(),
            () => undefined,
          ),
        ),
      );
    },
  };
}

/** Lists a running server's tools again and stores them; a failure leaves the snapshot as it was. */
async function relist(
  name: string,
  server: McpServerConfig,
  connection: Promise<McpConnection>,
  home: string,
): Promise<void> {
  try {
    const open = await connection;
    const tools = await open.listTools();
    await storeListedTools(home, [
      {
        name,
        fingerprint: mcpServerFingerprint(server),
        server: open.serverInfo,
        tools,
        refreshedAt: new Date().toISOString(),
      },
    ]);
  } catch {
    // The next refresh, or the next send that finds the snapshot stale, lists it again.
  }
}
