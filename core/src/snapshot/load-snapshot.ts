import { turnHooksOf } from '../turn/core-turn-types.js';
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { workspaceRoot } from '../state/workspace-root.js';
import { withProjectMcpServers } from '../mcp/project-mcp-servers.js';
import { loadConfig, type CwConfig } from '../config/cw-config.js';
import type { PromptLayer } from '../context/prompt-layer.js';
import { readProjectInstructions } from '../context/project-instructions.js';
import { turnContextBlock } from '../context/turn-context.js';
import type { PluginRegistry } from '../plugins/plugin-registry.js';
import { sandboxState } from '../sandbox/find-sandbox.js';
import { resolveHiddenPaths } from '../sandbox/workspace-files.js';
import { commandEnvironment, environmentPolicy } from '../agent/tool-environment.js';
import { selectSession } from '../state/select-session.js';
import { workspaceKeyOf } from '../state/session-location.js';
import { readSession } from '../state/session-store.js';
import { freshSessionMessages } from '../state/session-stamp.js';
import { NOTHING_PENDING, type CwSnapshot, type WorkingContext } from './snapshot.js';
import { applyOverrides, type SnapshotOverrides } from './snapshot-overrides.js';

/**
 * Reads config and session from the cw home into a snapshot, and each turn feature's session state
 * through `loadState` (the goal, a pending skill, the MCP tool snapshot). Reads only; creates nothing on disk.
 */
export async function loadSnapshot(options: {
  home: string;
  registry: PluginRegistry;
  defaultRouteId: string;
  /**
   * The folder the command runs in. When given, the working context is read too: AGENTS.md layers
   * and the turn-context block (docs/project-context.md). Without it the system prompt is the base
   * and no turn context is sent.
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
  const cwd = options.cwd ?? process.cwd();
  const { config, status: projectMcp } = await withProjectMcpServers(options.home, workspace, userConfig, cwd);
  const session = await selectSession(
    options.home,
    workspace === null ? null : workspaceKeyOf(workspace),
    config.session,
    overrides.session ?? { kind: 'default' },
  );
  const messages = session.fresh
    ? await freshSessionMessages(options.home, session.key)
    : await readSession(options.home, session.key);
  const base: CwSnapshot = {
    config,
    registry: options.registry,
    defaultRouteId: options.defaultRouteId,
    session: { name: session.name, key: session.key, messages },
    // The tools plugins registered, in load order (built-ins first); the MCP feature adds its snapshot's tools.
    catalog: options.registry.toolCatalog,
    mcp: { kind: 'disabled' },
    pending: NOTHING_PENDING,
    features: {},
    ...(projectMcp.changed.length === 0 ? {} : { changedProjectMcpServers: projectMcp.changed }),
    ...(workspace === null || Object.keys(projectMcp.digests).length === 0
      ? {}
      : { projectMcpFiles: { workspace, cwd, digests: projectMcp.digests } }),
    // Looked up on PATH only, never run: preview stays offline and fast (docs/security.md).
    ...(options.env === undefined
      ? {}
      : {
          sandbox: sandboxState(config.sandbox.mode, options.env, process.platform, {
            ...(workspace === null ? {} : { workspace }),
          }),
          // Counted, never started: preview reports what commands would see (docs/security.md).
          environment: commandEnvironment(options.env, environmentPolicy(options.registry.rows, config)).counts,
        }),
    ...(options.cwd === undefined || workspace === null
      ? {}
      : await workingPart(options.home, config, workspace, options.cwd, options.env ?? process.env)),
  };
  return turnHooksOf(options.registry).loadState.promise(base, {
    home: options.home,
    fresh: session.fresh,
    waiting: false,
  });
}

/**
 * The working context of a snapshot loaded for a folder, the layers a turn appends to the base
 * prompt, and the turn-context block. Reads only.
 */
async function workingPart(
  home: string,
  config: CwConfig,
  workspace: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ workingContext: WorkingContext; promptLayers: readonly PromptLayer[]; turnContext?: string }> {
  const here = await realpath(cwd);
  const { project_instructions, turn_context } = config.context;
  // What the sandbox hides from commands is not read into the system prompt either (docs/security.md).
  const hiddenOf = () =>
    resolveHiddenPaths({ home: homedir(), cwHome: home, denyRead: config.sandbox.deny_read, cwd: workspace });
  // Read side by side: the block may wait on git while the AGENTS.md files are read.
  const [layers, turnContext] = await Promise.all([
    project_instructions ? readProjectInstructions({ home, workspace, cwd: here, hidden: await hiddenOf() }) : [],
    turn_context ? turnContextBlock({ workspace, cwd: here, env }) : undefined,
  ]);
  return {
    workingContext: { workspace, cwd: here },
    promptLayers: layers,
    ...(turnContext === undefined ? {} : { turnContext }),
  };
}
