// The public surface of @cw/core for hosts (the CLI, a program that embeds cw), in the order data
// flows: plugins -> config -> snapshot -> plan -> preview | send -> sessions and state -> redaction.
// The plugin contract (rows, dialects, bodies, events, tools) is its own entry, @cw/core/plugin
// (plugin.ts); a host that needs those types imports them from there. Everything else stays internal:
// tests reach it by path. Where cw keeps its files is the small @cw/core/home entry (config/cw-home.ts),
// which bin/run.js loads before anything else. `node scripts/count-exports.mjs` counts this list.

export { fingerprint } from './canonical/sha256.js';

// Plugins, as a host loads them.
export { PLUGIN_API_VERSION, type PluginDescriptor } from './plugins/plugin-api.js';
export { pluginApiVersionRefusal } from './plugins/plugin-api-versions.js';
export { PluginRegistry, type PluginProblem } from './plugins/plugin-registry.js';
export { type HeldEntry, loadPlugins } from './plugins/load-plugins.js';
export { recordCheckedValues, useCheckedValues } from './validation/checked-values.js';

// Config.
export {
  ConfigError,
  cwConfigSchema,
  loadConfig,
  checkConfigText,
  configFieldNames,
  readConfigText,
  type McpServerConfig,
} from './config/cw-config.js';
export { parseConfigKey, formatConfigPath, ConfigKeyError } from './config/config-key-path.js';
export { formatConfigProblem, knownFieldsAt, type ConfigProblem } from './config/config-problems.js';
export { editConfigFile } from './config/edit-config-file.js';
export { configRouteProblems } from './plugins/config-route-problems.js';
export { userFactLabels } from './config/user-fact-labels.js';
export { closestWord } from './text/closest-word.js';

// Routes and tools, as `cw routes` describes them.
export { resolveRoute } from './route/resolve-route.js';
export { resolveModelFacts, MODEL_FACT_FIELDS } from './route/model-facts.js';
export { endpointUrl } from './route/endpoint-url.js';
export { transportSettingsFor } from './transport/transport-settings.js';
export { coreVersion } from './core-version.js';
export { SCHEMA_DIALECT_PRESETS } from './tools/schema-dialects.js';
export { KNOWN_KEYWORDS } from './tools/projection/schema-keywords.js';

// Snapshot, plan, preview.
export { BUNDLED_BASE_PROMPT } from './prompt/base-prompt.js';
export type { CwSnapshot, WorkingContext } from './snapshot/snapshot.js';
export { loadSnapshot } from './snapshot/load-snapshot.js';
export { tapCoreStages } from './tap-core-stages.js';
export type { SnapshotOverrides } from './snapshot/snapshot-overrides.js';
export { awaitsContinuation } from './plan-turn.js';
export { previewRequest } from './manifest/build-manifest.js';
export type { RequestManifest } from './manifest/manifest-schema.js';
export type { ManifestReason } from './plan/unavailable-reason.js';
export { diffManifests, parseManifestText, ManifestInputError } from './manifest/diff-manifests.js';
export { builtinReasonTable } from './features/builtin-reason-table.js';

// Send.
export { runTurn, sendTurn, type SentTurn, type LoopStop } from './send-turn.js';
export { APPROVAL_POSTURES, type ApprovalPosture } from './config/approval-posture.js';
export type { AssistantReply } from './reply/assemble-reply.js';
export type { ToolCallRecord, ToolCallStatus, AskedCall } from './agent/run-tool-calls.js';
export { ApprovalStore, type AskAnswer } from './agent/approval-store.js';
export { workspaceRoot } from './state/workspace-root.js';

// Sessions, goals, skills, compaction.
export { activeSession } from './config/active-session.js';
export { SESSION_NAME_PATTERN } from './state/session-location.js';
export { claimSession } from './state/claim-session.js';
export { listSessions, showSession, messageView, removeSession, renameSession } from './state/session-list.js';
export {
  readGoal,
  setGoal,
  clearGoal,
  GoalStateError,
  MAX_GOAL_TEXT,
  MAX_GOAL_TOKEN_BUDGET,
} from './features/goal/goal-store.js';
export { goalView } from './features/goal/goal-view.js';
export { discoverSkills, findSkill } from './features/skills/discover-skills.js';
export { readPendingSkill, setPendingSkill, clearPendingSkill } from './features/skills/pending-skill.js';
export { SKILL_NAME_PATTERN } from './features/skills/skill-file.js';
export { skillView } from './features/skills/skill-view.js';
export { compactSession } from './features/compaction/compact-session.js';

// MCP servers.
// The MCP servers' management, as `cw mcp` uses it: one namespace (`core.mcp.readMcpServers`, …).
export * as mcp from './mcp/mcp-public.js';
export { permissionRuleWarnings } from './agent/permission-rule-warnings.js';
export { mcpSessionStates } from './features/mcp/mcp-session-pool.js';

// The command sandbox (docs/security.md) and the permissions kept for a workspace.
export { findSandboxProgram } from './sandbox/find-sandbox.js';
export { openCommandSandbox } from './sandbox/command-sandbox.js';
export { openConfiguredSandbox } from './sandbox/open-configured-sandbox.js';
export { SandboxUnavailableError } from './sandbox/sandbox-unavailable-error.js';
export { checkSandbox } from './sandbox/check-sandbox.js';
export { readProjectPermissions } from './agent/project-permissions.js';

// Redaction: every string a host prints crosses one of these (docs/security.md).
export {
  safeIdentifier,
  safeKeyPath,
  safeCatalogModel,
  safePhrase,
  safePackageName,
  safeErrorText,
  endpointHostClass,
  endpointFingerprint,
  terminalSafe,
  terminalSafeMultiline,
  safeEnvVarName,
} from './redaction/index.js';
export { safeConfigValue } from './redaction/safe-config-value.js';
export { safeUserLabel } from './redaction/safe-user-label.js';

// The Agent API (docs/embedding.md): what every host — the CLI, an editor, a script — drives turns through.
export {
  createAgent,
  type Agent,
  type AgentOptions,
  type RunOptions,
} from './agent-api/create-agent.js';
export type { AgentEvent, TotalUsage } from './agent-api/agent-events.js';
export type { EventLine } from './agent-api/event-lines-schema.js';
export { totalUsage } from './agent-api/total-usage.js';
export { sumCosts, type Cost, type CostTotal } from './cost/step-cost.js';
export { createSessionScope } from './agent-api/session-scope.js';
export type { PreviewResult } from './manifest/build-manifest.js';
export type { TurnNotice, SessionScope } from './turn/turn-hooks.js';
