import { turnHooksOf } from '../turn/core-turn-types.js';
import type { ApprovalPosture } from '../config/approval-posture.js';
import type { AskAnswer, AskedCall } from '../agent/run-tool-calls.js';
import { workspaceRoot } from '../state/workspace-root.js';
import { ApprovalStore } from '../agent/approval-store.js';
import { type ConfiguredSandbox, openConfiguredSandbox } from '../sandbox/open-configured-sandbox.js';
import type { SandboxMode } from '../sandbox/sandbox-config.js';
import type { Entrypoint } from '../body/wire-body.js';
import type { McpServerConfig } from '../config/cw-config.js';
import { cwHome } from '../config/cw-home.js';
import { previewRequest, type PreviewResult } from '../manifest/build-manifest.js';
import { loadPlugins } from '../plugins/load-plugins.js';
import type { PluginDescriptor } from '../plugins/plugin-api.js';
import type { PluginRegistry } from '../plugins/plugin-registry.js';
import { type AgentLoopOptions, runTurn as runLoop, type SentTurn } from '../send-turn.js';
import { loadSnapshot } from '../snapshot/load-snapshot.js';
import type { SnapshotOverrides } from '../snapshot/snapshot-overrides.js';
import type { CwSnapshot } from '../snapshot/snapshot.js';
import { moveCorruptSessionAside } from '../state/session-store.js';
import { tapCoreStages } from '../tap-core-stages.js';
import type { PrepareContext, SessionScope, TurnNotice } from '../turn/turn-hooks.js';
import type { AgentEvent } from './agent-events.js';
import { EventQueue } from './event-queue.js';

// The agent loop's bounds when neither config nor the caller sets them (docs/agent-loop.md).
const DEFAULT_MAX_STEPS = 25;
const DEFAULT_LIMITS = { outputBytes: 32 * 1024, outputLines: 2_000, commandTimeoutMs: 120_000 };

/** Where an agent lives and which plugins it runs (docs/embedding.md). */
export interface AgentOptions {
  /** The cw home (config, sessions); default: the one `CW_HOME` or the platform names. */
  readonly home?: string;
  /** The folder turns run in: it picks the workspace, its sessions and AGENTS.md; default: the process's. */
  readonly cwd?: string;
  /** The environment API keys are read from; default: the process's. Tools get it without keys. */
  readonly env?: NodeJS.ProcessEnv;
  /** A registry already loaded (and tapped); or `plugins` to load. */
  readonly registry?: PluginRegistry;
  /** Plugin packages to load, in order; ignored when `registry` is given. */
  readonly plugins?: readonly PluginDescriptor[];
  /** The route used when config names none. */
  readonly defaultRouteId: string;
}

/** What one preview or run is planned from: the command line's choices over config. */
export interface TurnOptions {
  /** Route, model, reasoning and session choices over config. */
  readonly overrides?: SnapshotOverrides;
  /** `blocking` asks for one JSON reply; default `streaming`. */
  readonly entrypoint?: Entrypoint;
  /** A snapshot the host loaded with `agent.load` (to check it first); default: loaded now. */
  readonly snapshot?: CwSnapshot;
  /**
   * MCP servers for this turn only, over config's of the same name: a host's own (an editor hands
   * its servers to a session). They reach no file but the tool snapshot (docs/mcp.md).
   */
  readonly mcpServers?: Readonly<Record<string, McpServerConfig>>;
}

/** Options of one `agent.run`. */
export interface RunOptions extends TurnOptions {
  /** The approval posture; default: config's. */
  readonly approval?: ApprovalPosture;
  /** Hand tool calls back unrun (the `never` posture), whatever the approval. */
  readonly noTools?: boolean;
  readonly maxSteps?: number;
  readonly maxRetries?: number;
  /** Aborting stops the running step: answered calls are kept, the rest answered "not executed". */
  readonly signal?: AbortSignal;
  /**
   * Answers `ask` approvals. Without it, `approvalEvents: true` answers them through each
   * `approval-request` event's `respond`; with neither, there is no one to ask and `ask` acts as `read-only`.
   */
  readonly onApproval?: (call: AskedCall) => Promise<AskAnswer>;
  /**
   * Where answers are kept: a host that runs many turns (a chat, an editor session) passes one store
   * to each, so "always" lasts across them; default: one for this run (docs/embedding.md).
   */
  readonly approvals?: ApprovalStore;
  /** Where commands run (`--sandbox`): over config's `sandbox.mode` (docs/security.md). */
  readonly sandbox?: SandboxMode;
  readonly approvalEvents?: boolean;
  /**
   * Keeps what features open across this host's turns (MCP servers stay up from their first call to
   * `scope.close()`); made with createSessionScope. Absent, the run closes everything it opened.
   */
  readonly scope?: SessionScope;
}

/** A running turn: its events as they happen, and its outcome. */
export interface AgentRun extends AsyncIterable<AgentEvent> {
  /** Resolves with the turn's outcome once the last event was pushed; rejects with the turn's error. */
  readonly result: Promise<SentTurn>;
}

/** cw as a library: the one API the CLI and every other host drive turns through. */
export interface Agent {
  readonly registry: PluginRegistry;
  readonly home: string;
  /** Loads the snapshot a turn would be planned from; `repair` moves an unreadable session aside (as a send does). */
  load(overrides?: SnapshotOverrides, options?: { readonly repair?: boolean }): Promise<LoadedSnapshot>;
  /** Describes the next turn exactly, offline, changing nothing: the manifest `cw preview-request` prints. */
  preview(prompt: string | undefined, options?: TurnOptions): Promise<PreviewResult & { snapshot: CwSnapshot }>;
  /** Sends the turn and runs the agent loop, streaming typed events. */
  run(prompt: string | undefined, options?: RunOptions): AgentRun;
}

/** A loaded snapshot, and the session file a repair moved aside (relative to the home), if any. */
export interface LoadedSnapshot {
  readonly snapshot: CwSnapshot;
  readonly movedAside: { readonly name: string; readonly file: string } | null;
}

/** Creates an agent: loads the plugins (unless given a registry) and applies the built-in turn features. */
export async function createAgent(options: AgentOptions): Promise<Agent> {
  const env = options.env ?? process.env;
  const home = options.home ?? cwHome(env);
  const cwd = options.cwd ?? process.cwd();
  const registry = options.registry ?? (await loadPlugins(options.plugins ?? []));
  tapCoreStages(registry);
  const load = async (overrides: SnapshotOverrides = {}, repair = false): Promise<LoadedSnapshot> => {
    const read = () => loadSnapshot({ home, registry, defaultRouteId: options.defaultRouteId, cwd, env, overrides });
    try {
      return { snapshot: await read(), movedAside: null };
    } catch (error) {
      const key = (error as { corruptKey?: unknown }).corruptKey;
      if (!repair || typeof key !== 'string') throw error;
      const file = await moveCorruptSessionAside(home, key);
      return { snapshot: await read(), movedAside: { name: key.split('/').at(-1) ?? key, file } };
    }
  };
  return {
    registry,
    home,
    load: (overrides, loadOptions) => load(overrides, loadOptions?.repair ?? false),
    preview: async (prompt, turnOptions = {}) => {
      const loaded = withMcpServers(
        turnOptions.snapshot ?? (await load(turnOptions.overrides)).snapshot,
        turnOptions.mcpServers,
      );
      const entrypoint = turnOptions.entrypoint ?? 'streaming';
      // The same preparation a send runs, in preview mode: it reads, resolves mentions, runs nothing.
      const context: PrepareContext = { mode: 'preview', home, entrypoint, env };
      const draft = await turnHooksOf(registry).prepareTurn.promise({ snapshot: loaded, prompt }, context);
      return { ...previewRequest(draft.snapshot, draft.prompt, entrypoint), snapshot: draft.snapshot };
    },
    run: (prompt, runOptions = {}) => runTurn({ home, env, cwd, load }, prompt, runOptions),
  };
}

/** The snapshot with a host's MCP servers added to its config for this turn. */
function withMcpServers(snapshot: CwSnapshot, servers: TurnOptions['mcpServers']): CwSnapshot {
  if (servers === undefined || Object.keys(servers).length === 0) return snapshot;
  return { ...snapshot, config: { ...snapshot.config, mcpServers: { ...snapshot.config.mcpServers, ...servers } } };
}

/** What a turn needs of its agent: where it keeps its files, its environment, and how it loads a snapshot. */
interface TurnAgent {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly load: (overrides: SnapshotOverrides, repair: boolean) => Promise<LoadedSnapshot>;
}

/**
 * Runs one turn: `turn-start`, then the loop's own events as it yields them. The run starts at once
 * and its events are kept until read, so a host may read them, await `result`, or both.
 */
function runTurn(agent: TurnAgent, prompt: string | undefined, options: RunOptions): AgentRun {
  const events = new EventQueue<AgentEvent>();
  const result = (async (): Promise<SentTurn> => {
    const turn = turnEvents(agent, prompt, options);
    for (;;) {
      const next = await turn.next();
      if (next.done === true) return next.value;
      events.push(next.value);
    }
  })();
  result.then(
    () => events.end(),
    (error: unknown) => {
      events.push({ type: 'error', error });
      events.end();
    },
  );
  return { result, [Symbol.asyncIterator]: () => events[Symbol.asyncIterator]() };
}

/** The turn's events: where it runs, then the loop's stream passed through. */
async function* turnEvents(
  agent: TurnAgent,
  prompt: string | undefined,
  options: RunOptions,
): AsyncGenerator<AgentEvent, SentTurn, undefined> {
  const loaded = withMcpServers(
    options.snapshot ?? (await agent.load(options.overrides ?? {}, true)).snapshot,
    options.mcpServers,
  );
  yield { type: 'turn-start', session: loaded.session.name, session_id: loaded.session.key };
  // The sandbox is found before anything runs: `required` without one stops here (docs/security.md).
  const sandboxConfig = { ...loaded.config.sandbox, mode: options.sandbox ?? loaded.config.sandbox.mode };
  const workspace = await workspaceRoot(loaded.config.workspace, agent.cwd);
  const configured = await openConfiguredSandbox({
    config: sandboxConfig,
    env: agent.env,
    workspace,
    cwHome: agent.home,
  });
  try {
    const snapshot: CwSnapshot = {
      ...loaded,
      config: { ...loaded.config, sandbox: sandboxConfig },
      sandbox: configured.state,
    };
    const loop = await loopOptions(snapshot, options, { home: agent.home, workspace, configured });
    if (loop.warning !== null) yield { type: 'notice', notice: loop.warning };
    const stream = runLoop(snapshot, {
      home: agent.home,
      prompt,
      entrypoint: options.entrypoint ?? 'streaming',
      env: agent.env,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.scope ? { scope: options.scope } : {}),
      loop: loop.options,
    });
    for (;;) {
      const next = await stream.next();
      if (next.done === true) return next.value;
      const event = next.value;
      // A host that answers through `onApproval` is asked here: the request is its, not the reader's.
      if (event.type === 'approval-request' && loop.answer !== null) event.respond(await loop.answer(event.call));
      else yield event;
    }
  } finally {
    // An allowlist's proxy must not keep the process alive.
    await configured.sandbox?.close();
  }
}

/** The loop's bounds and approval wiring: the caller's choices, then config's, then cw's defaults. */
async function loopOptions(
  snapshot: CwSnapshot,
  options: RunOptions,
  where: { readonly home: string; readonly workspace: string; readonly configured: ConfiguredSandbox },
): Promise<{
  readonly options: AgentLoopOptions;
  /** Said before the turn starts, when commands will be asked about for want of a sandbox. */
  readonly warning: TurnNotice | null;
  /** How the host's `onApproval` answers an `approval-request`; null when the reader answers, or no one. */
  readonly answer: ((call: AskedCall) => Promise<AskAnswer>) | null;
}> {
  const limits = snapshot.config.tool_limits;
  const store = options.approvals ?? new ApprovalStore();
  const posture = store.postureFor(snapshot.config.approval, {
    ...(options.noTools === undefined ? {} : { noTools: options.noTools }),
    ...(options.approval === undefined ? {} : { approval: options.approval }),
  });
  const { sandbox, askForCommands } = where.configured;
  const warning: TurnNotice | null =
    askForCommands && (posture === 'workspace' || posture === 'ask')
      ? {
          kind: 'warning',
          text: 'no sandbox found on this machine: each command is asked about before it runs (docs/security.md)',
        }
      : null;
  // Config's rules and the ones kept for this workspace by answering "always here".
  const rules = await store.rulesFor(snapshot.config.permissions, where);
  // The host's `onApproval` answers; each answer, "always" ones included, goes to the store in the loop.
  const answer = options.onApproval ?? null;
  return {
    warning,
    answer,
    options: {
      posture,
      rules,
      approvals: store,
      workspace: where.workspace,
      ...(sandbox === null ? {} : { sandbox }),
      ...(askForCommands ? { askForCommands } : {}),
      maxSteps: options.maxSteps ?? snapshot.config.max_steps ?? DEFAULT_MAX_STEPS,
      limits: {
        outputBytes: limits.output_bytes ?? DEFAULT_LIMITS.outputBytes,
        outputLines: limits.output_lines ?? DEFAULT_LIMITS.outputLines,
        commandTimeoutMs: limits.command_timeout_ms ?? DEFAULT_LIMITS.commandTimeoutMs,
        ...(limits.search_timeout_ms === undefined ? {} : { searchTimeoutMs: limits.search_timeout_ms }),
      },
      ...(answer !== null || options.approvalEvents === true ? { answersApprovals: true } : {}),
    },
  };
}
