import { realpath } from 'node:fs/promises';
import { workspaceRoot } from '../agent/workspace-root.js';
import { withProjectMcpServers } from '../mcp/project-mcp-servers.js';
import { loadConfig, type CwConfig } from '../config/cw-config.js';
import type { PromptLayer } from '../context/prompt-layer.js';
import { readProjectInstructions } from '../context/project-instructions.js';
import { turnContextLayer } from '../context/turn-context.js';
import { readGoalGate } from '../goal/goal-gate.js';
import { AUTO_ROUTE } from '../auto-route/on-route.js';
import { readAutoRouteChoice } from '../auto-route/auto-route-choice.js';
import type { WorkingContext } from '../submit/resolve-prompt.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { PluginRegistry } from '../plugins/plugin-registry.js';
import { tapRowTable } from '../route/resolve-route.js';
import { loadPendingSkill, type PendingSkill } from '../skills/load-pending-skill.js';
import { selectSession } from '../state/select-session.js';
import { workspaceKeyOf } from '../state/session-location.js';
import { readSession } from '../state/session-store.js';
import { tapProjectionEngine } from '../tools/project-tools.js';
import { NOTHING_PENDING, type CwSnapshot, type McpState } from './snapshot.js';
import { applyOverrides, type SnapshotOverrides } from './snapshot-overrides.js';

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
  /**
   * The folder the command runs in. When given, the working context is read too: AGENTS.md layers
   * and the turn-context block (docs/project-context.md). Without it the system prompt is the base.
   */
  cwd?: string;
  /** Read for `CW_DATE`; defaults to the process environment. */
  env?: NodeJS.ProcessEnv;
  /** The command line's route, model, reasoning and session choices, over config. */
  overrides?: SnapshotOverrides;
}): Promise<CwSnapshot> {
  const overrides = options.overrides ?? {};
  const userConfig = applyOverrides(
    await loadConfig(options.home, { dialectIds: options.registry.dialectIds }),
    overrides,
    options.registry,
    options.defaultRouteId,
  );
  // Sessions belong to the workspace a command runs in; without a working folder, to none.
  const workspace = options.cwd === undefined ? null : await workspaceRoot(userConfig.workspace, options.cwd);
  // A trusted workspace .mcp.json adds its servers after the user's own (docs/mcp.md).
  const { config } = await withProjectMcpServers(options.home, workspace, userConfig);
  const session = await selectSession(
    options.home,
    workspace === null ? null : workspaceKeyOf(workspace),
    config.session,
    overrides.session ?? { kind: 'default' },
  );
  const messages = session.fresh ? [] : await readSession(options.home, session.key);
  const { mcp, catalog } = await mcpPart(options.home, config, options.registry.toolCatalog);
  const goal = session.fresh ? 'none' : await readGoalGate(options.home, session.key);
  return {
    config,
    registry: options.registry,
    defaultRouteId: options.defaultRouteId,
    session: { name: session.name, key: session.key, messages },
    // The tools plugins registered, in load order (built-ins first), then the snapshot's MCP tools.
    catalog,
    mcp,
    // Configured hooks are pending on every new prompt: a submit runs them, a preview must not. So is
    // auto routing: a submit asks the classifier route, a preview must not.
    pending: {
      ...NOTHING_PENDING,
      goal,
      messageSubmitHooks: config.hooks.message_submit.length,
      autoRouting: config.route === AUTO_ROUTE,
    },
    autoRouteChoice:
      config.route === AUTO_ROUTE && !session.fresh
        ? ((await readAutoRouteChoice(options.home, session.key))?.route ?? null)
        : null,
    ...(options.cwd === undefined || workspace === null
      ? {}
      : await workingPart(options.home, config, session.key, workspace, options.cwd, options.env ?? process.env)),
  };
}

/** The working context of a snapshot loaded for a folder, and the layers a turn appends to the base prompt. Reads only. */
async function workingPart(
  home: string,
  config: CwConfig,
  session: string,
  workspace: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{
  workingContext: WorkingContext;
  promptLayers: readonly PromptLayer[];
  pendingSkill: PendingSkill | null;
}> {
  const here = await realpath(cwd);
  const { project_instructions, turn_context } = config.context;
  const layers = project_instructions ? await readProjectInstructions({ home, workspace, cwd: here }) : [];
  if (turn_context) layers.push(await turnContextLayer({ workspace, cwd: here, env }));
  // Read, never taken: only a send that goes out consumes it (docs/skills.md).
  const pendingSkill = await loadPendingSkill(home, session, workspace);
  return { workingContext: { workspace, cwd: here }, promptLayers: layers, pendingSkill };
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
    import('../mcp/mcp-snapshot-store.js'),
    import('../mcp/mcp-snapshot-state.js'),
    import('../mcp/mcp-catalog.js'),
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
