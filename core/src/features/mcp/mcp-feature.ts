import { toolEnvironment } from '../../agent/tool-environment.js';
import { safeIdentifier } from '../../redaction/safe-label.js';
import type { CoreTurnHooks } from '../../turn/core-turn-types.js';
import type { CwConfig, McpServerConfig } from '../../config/cw-config.js';
import type { McpState, ProjectMcpFiles } from '../../snapshot/snapshot.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import { safeErrorText } from '../../redaction/index.js';
import type { PrepareContext } from '../../turn/turn-hooks.js';

/** MCP's name among the features. */
export const MCP_FEATURE = 'mcp';

// What each send opened, so closeSend releases exactly that send's servers.
const opened = new WeakMap<PrepareContext, () => Promise<void>>();

/**
 * MCP (docs/mcp.md) as a turn feature: a snapshot offers the stored tool snapshot's tools, known
 * without connecting; a send starts a server on the first call of one of its tools (or every server
 * up front, to list them, when the stored snapshot does not match the config), runs their tools, and
 * stops them when it ends.
 */
export function applyMcp(hooks: CoreTurnHooks): void {
  hooks.reasons.register({
    reason: 'mcp-state-not-snapshottable',
    label: 'MCP tool state cannot be snapshotted without connecting',
    places: ['tools', 'body'],
    registeredBy: MCP_FEATURE,
  });
  hooks.reasons.register({
    reason: 'mcp-resource-not-read',
    label: 'MCP resources the prompt mentions are read only when the turn is sent',
    places: ['body'],
    registeredBy: MCP_FEATURE,
  });
  hooks.notices.register({
    kind: 'progress',
    description: "A long tool call reported progress (an MCP server's, docs/mcp.md).",
    fields: {
      tool: { type: 'identifier', description: 'The tool that reported.' },
      text: { type: 'text', description: "The server's progress words." },
    },
    text: (fields) => `▸ ${String(fields['tool'])} progress ${String(fields['text'])}`,
    registeredBy: MCP_FEATURE,
  });
  hooks.checkRequest.tap(MCP_FEATURE, ({ snapshot, prompt }) => {
    // A catalog missing its MCP part is not "the same request without MCP tools": the body inherits.
    if (snapshot.mcp.kind === 'not-snapshottable')
      return { reason: 'mcp-state-not-snapshottable', detail: safeErrorText(snapshot.mcp.detail) };
    // Resource contents come from their servers, which a preview does not start: the body is not known.
    const unread = typeof prompt === 'object' ? (prompt.unreadResources ?? 0) : 0;
    if (unread === 0) return undefined;
    const detail = `the prompt mentions ${unread} MCP resource${unread === 1 ? '' : 's'}, read from its server only when the turn is sent`;
    return { reason: 'mcp-resource-not-read', detail };
  });
  hooks.loadState.tapPromise(MCP_FEATURE, async (snapshot, context) => {
    if (context.waiting) return snapshot;
    return { ...snapshot, ...(await mcpPart(context.home, snapshot.config, snapshot.catalog)) };
  });
  hooks.openSend.tapPromise(MCP_FEATURE, async (resources, context) => {
    const { snapshot } = resources;
    // One line each, naming the server, never the file: it runs nothing until trusted again.
    if (context.mode === 'send')
      for (const name of snapshot.changedProjectMcpServers ?? [])
        context.notify?.({
          kind: 'warning',
          text: `warning: MCP server ${safeIdentifier(name)} (.mcp.json) was not started: a workspace file it runs changed since you trusted it; check it, then run cw mcp trust`,
        });
    if (context.mode !== 'send' || !Object.values(snapshot.config.mcpServers).some((server) => !server.disabled))
      return resources;
    const callTimeoutMs = context.toolTimeoutMs ?? 120_000;
    const onProgress = (tool: string, text: string) => context.notify?.({ kind: 'progress', tool, text });
    // No server starts before the model calls one of its tools when the stored snapshot already
    // offers them (docs/mcp.md, "When servers start"). An interactive session keeps what it started
    // until the session ends; a one-off send stops its servers when it ends.
    const { mcpSessionPool, createMcpPool } = await import('./mcp-session-pool.js');
    const sessionPool = context.scope ? mcpSessionPool(context.scope) : undefined;
    // An empty map until a server starts: cheap to make even when the session's pool is used.
    const ownPool = createMcpPool();
    const { lazyMcpTools } = await import('./lazy-mcp-tools.js');
    // What starting and calling the servers needs, whether they start on first use or up front.
    const servers = {
      home: context.home,
      config: snapshot.config,
      env: context.env,
      // The same environment as every command the model runs (docs/security.md).
      commandEnv: toolEnvironment(context.env, snapshot.registry.rows, snapshot.config),
      ...(snapshot.projectMcpFiles ? { filesUnchanged: filesUnchanged(snapshot.projectMcpFiles) } : {}),
      pluginTools: snapshot.registry.toolCatalog,
      callTimeoutMs,
      onProgress,
      ...(context.sandbox ? { sandbox: context.sandbox } : {}),
      ...(snapshot.workingContext ? { workspace: snapshot.workingContext.workspace } : {}),
    };
    const lazy = await lazyMcpTools({ ...servers, pool: sessionPool ?? ownPool });
    if (lazy !== null) {
      if (sessionPool === undefined) opened.set(context, ownPool.closeAll);
      return { snapshot, tools: [...resources.tools, ...lazy] };
    }
    const { openMcpForSend } = await import('./open-mcp-for-send.js');
    const mcp = await openMcpForSend({
      ...servers,
      ...(context.signal ? { signal: context.signal } : {}),
      ...(sessionPool ? { pool: sessionPool } : {}),
    });
    if (!sessionPool) opened.set(context, mcp.close);
    for (const failure of mcp.failures) {
      // The problem already names the server; its tools are simply absent from this turn.
      context.notify?.({
        kind: 'warning',
        text: `warning: ${failure.problem}; its tools are left out of this turn`,
      });
    }
    return {
      snapshot: { ...snapshot, catalog: mcp.catalog, mcp: mcp.mcp },
      tools: [...resources.tools, ...mcp.tools],
    };
  });
  hooks.closeSend.tapPromise(MCP_FEATURE, async (_resources, context) => {
    const close = opened.get(context);
    opened.delete(context);
    await close?.();
  });
}

/**
 * Whether a trusted project server's workspace files are still the bytes trusted: read again right
 * before it starts, since the model may have edited them since the snapshot (docs/mcp.md).
 */
function filesUnchanged(files: ProjectMcpFiles): (name: string, server: McpServerConfig) => Promise<boolean> {
  return async (name, server) => {
    if (!Object.hasOwn(files.digests, name)) return true;
    const { serverFileDigest } = await import('../../mcp/server-file-digest.js');
    return (await serverFileDigest(files.workspace, server, files.cwd)) === files.digests[name];
  };
}

/**
 * What MCP adds to a turn, known without connecting: the stored snapshot's tools when every enabled
 * server's entry matches its config, otherwise a reason. Reads the snapshot file only; never spawns
 * a server or opens a socket.
 */
async function mcpPart(
  home: string,
  config: CwConfig,
  pluginTools: readonly ToolDefinition[],
): Promise<{ mcp: McpState; catalog: readonly ToolDefinition[] }> {
  const enabled = Object.values(config.mcpServers).filter((server) => !server.disabled).length;
  if (enabled === 0) return { mcp: { kind: 'disabled' }, catalog: pluginTools };
  const [{ readMcpSnapshot }, { mcpSnapshotState }, { mcpCatalog }] = await Promise.all([
    import('../../mcp/mcp-snapshot-store.js'),
    import('../../mcp/mcp-snapshot-state.js'),
    import('../../mcp/mcp-catalog.js'),
  ]);
  let state: Awaited<ReturnType<typeof mcpSnapshotState>>;
  try {
    state = mcpSnapshotState(config.mcpServers, await readMcpSnapshot(home));
  } catch {
    state = { kind: 'not-snapshottable', staleCount: enabled, enabledCount: enabled };
  }
  if (state.kind === 'snapshot') {
    const mcp = mcpCatalog(state.servers, new Set(pluginTools.map((tool) => tool.name)));
    return { mcp: { kind: 'snapshot', serverCount: state.servers.length }, catalog: [...pluginTools, ...mcp.tools] };
  }
  if (state.kind === 'disabled') return { mcp: { kind: 'disabled' }, catalog: pluginTools };
  return {
    mcp: {
      kind: 'not-snapshottable',
      detail: `${state.staleCount} of ${state.enabledCount} enabled MCP servers have no snapshot matching their config; run cw mcp refresh`,
    },
    catalog: pluginTools,
  };
}
