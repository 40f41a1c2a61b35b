// The public surface of @cw/core: what plugins and the CLI use, in the order data flows:
// plugin contract -> snapshot -> plan -> preview | send -> redaction. Everything else stays internal.

export type { JsonValue } from './canonical/canonical-json.js';
export { fingerprint } from './canonical/sha256.js';
export { cwHome, cwPaths, type CwPaths, type HomeSource } from './config/cw-home.js';
export type { CustomRouteConfig } from './config/cw-config.js';
export {
  PLUGIN_API_VERSION,
  type PluginApi,
  type PluginHooks,
  type PluginTapOptions,
  type RegisterPlugin,
  type PluginDescriptor,
} from './plugins/plugin-api.js';
export { PluginRegistry, type PluginProblem, type LoadedPlugin } from './plugins/plugin-registry.js';
export { loadPlugins } from './plugins/load-plugins.js';
export {
  type CheckedValues,
  type CheckedEntry,
  checkWith,
  recordCheckedValues,
  useCheckedValues,
} from './validation/checked-values.js';
export type { ConversationMessage, ToolCall } from './prompt/conversation.js';
export { BUNDLED_BASE_PROMPT } from './prompt/base-prompt.js';
export type { CapabilityRow, CapabilityRowInput, ModelOverrideInput } from './route/capability-row.js';
export { resolveModelFacts, MODEL_FACT_FIELDS, type ModelFacts, type ModelMatch } from './route/model-facts.js';
export { type ResolvedRoute, type RouteQuery, resolveRoute } from './route/resolve-route.js';
export type { ProjectionContext, ToolProjection, ToolProjectionWarning } from './tools/project-tools.js';
export { SCHEMA_DIALECT_PRESETS } from './tools/schema-dialects.js';
export { KNOWN_KEYWORDS } from './tools/projection/schema-keywords.js';
export type {
  BuildContext,
  WireBody,
  WireToolSpec,
  ReconciledToolChoice,
  ReasoningPlan,
  Entrypoint,
  BodyLayout,
  ReasoningLayout,
  ToolChoiceFacts,
  CacheBreakpointRegion,
} from './body/wire-body.js';
export type { DialectDefinition, RouteMatch, RefineBody, RefineOptions } from './dialect/dialect-contract.js';
export type { WireEvent, TurnEvent, TurnUsage, ReplyDecoder } from './reply/turn-events.js';
export { ReplyAssembler, assembleReply, type AssistantReply, type InStreamError } from './reply/assemble-reply.js';
export { endpointUrl, type EndpointTarget } from './route/endpoint-url.js';
export { MODEL_PLACEHOLDER } from './route/endpoint-path.js';
export type { CwSnapshot } from './snapshot/snapshot.js';
export { tapCoreStages, loadSnapshot } from './snapshot/load-snapshot.js';
export { activeSessionName, activeSession, sessionNameOf } from './config/active-session.js';
export type { SnapshotOverrides } from './snapshot/snapshot-overrides.js';
export type { SessionSelection } from './state/select-session.js';
export { workspaceKeyOf, SESSION_NAME_PATTERN } from './state/session-location.js';
export { SessionError, moveCorruptSessionAside } from './state/session-store.js';
export {
  listSessions,
  showSession,
  messageView,
  removeSession,
  renameSession,
  SessionNotFoundError,
  type SessionSummary,
  type SessionMessageView,
} from './state/session-list.js';
export {
  readGoal,
  setGoal,
  clearGoal,
  GoalStateError,
  MAX_GOAL_TEXT,
  MAX_GOAL_TOKEN_BUDGET,
  type Goal,
} from './goal/goal-store.js';
export { goalView, type GoalView } from './goal/goal-view.js';
export { refuseSendOnGoal } from './goal/goal-gate.js';
export { compactSession } from './compaction/compact-session.js';
export type { Compacted } from './compaction/compact-history.js';
export { CompactionError } from './compaction/compaction-error.js';
export { AutoRouteError } from './auto-route/classify-route.js';
export {
  discoverSkills,
  findSkill,
  nameOf as skillNameOf,
  type FoundSkill,
  type SkillSource,
} from './skills/discover-skills.js';
export { readPendingSkill, setPendingSkill, clearPendingSkill, PendingSkillError } from './skills/pending-skill.js';
export { SKILL_NAME_PATTERN } from './skills/skill-file.js';
export { skillView, type SkillView } from './skills/skill-view.js';
export { previewRequest } from './manifest/build-manifest.js';
export { resolveTurnPrompt } from './submit/resolve-turn-prompt.js';
export { PromptResolutionError } from './submit/prompt-resolution-error.js';
export type { TurnPrompt } from './submit/user-message.js';
export type { ResolvedPrompt, WorkingContext } from './submit/resolve-prompt.js';
export { planTurn, awaitsContinuation, type TurnPlan, type TurnInput } from './plan-turn.js';
export type { RequestManifest } from './manifest/manifest-schema.js';
export { renderManifestTable } from './manifest/render-manifest-table.js';
export { diffManifests, parseManifestText, ManifestInputError } from './manifest/diff-manifests.js';
export { renderManifestDiff } from './manifest/render-manifest-diff.js';
export {
  sendTurn,
  ReplyNotSavedError,
  type SentTurn,
  type SendTurnOptions,
  type AgentLoopOptions,
  type AgentStep,
  type LoopStop,
} from './send-turn.js';
export { APPROVAL_POSTURES, type ApprovalPosture, type ApprovalRules } from './agent/approval-policy.js';
export type { ToolCallRecord, ToolCallStatus, AskAnswer } from './agent/run-tool-calls.js';
export { workspaceRoot } from './agent/workspace-root.js';
export type {
  ToolImplementation,
  ToolContext,
  ToolOutcome,
  ToolArguments,
  ToolLimits,
} from './tools/tool-contract.js';
export { transportSettingsFor } from './transport/transport-settings.js';
export { ProviderError } from './transport/provider-error.js';
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
export {
  MCP_SERVER_NAME_PATTERN,
  type McpServerConfig,
  type McpStdioServerConfig,
  type McpHttpServerConfig,
} from './config/cw-config.js';
export { mcpServerFingerprint } from './mcp/mcp-server-fingerprint.js';
export {
  expandEnvReferences,
  expandEnvRecord,
  envReferenceNames,
  McpEnvReferenceError,
} from './mcp/expand-env-references.js';
export {
  readMcpSnapshot,
  updateMcpSnapshot,
  writeMcpSnapshot,
  emptyMcpSnapshot,
  mcpSnapshotPath,
  McpSnapshotError,
  type McpSnapshot,
  type McpSnapshotEntry,
  type McpSnapshotTool,
} from './mcp/mcp-snapshot-store.js';
export {
  mcpSnapshotState,
  mcpServerSnapshotStatus,
  type McpSnapshotState,
  type McpSnapshotServer,
  type McpServerSnapshotStatus,
} from './mcp/mcp-snapshot-state.js';
export {
  connectMcpServer,
  stdioServerEnvironment,
  McpServerError,
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  DEFAULT_MCP_CALL_TIMEOUT_MS,
  type McpConnection,
  type McpToolResult,
  type McpServerInfo,
  type McpErrorCode,
  type ConnectMcpServerOptions,
} from './mcp/connect-mcp-server.js';
export {
  refreshMcpSnapshot,
  type McpRefreshResult,
  type RefreshMcpSnapshotOptions,
} from './mcp/refresh-mcp-snapshot.js';
export {
  mcpTransportOf,
  mcpServerTarget,
  isMcpHttpServer,
  isMcpStdioServer,
  type McpTransportKind,
} from './mcp/mcp-server-target.js';
export { findLiteralSecret, type LiteralSecret } from './mcp/find-literal-secret.js';
export { readMcpServers, addMcpServer, removeMcpServer, McpConfigEditError } from './mcp/mcp-config-file.js';
export { openMcpForSend, type OpenMcp } from './mcp/open-mcp-for-send.js';
export * from './mcp/mcp-public.js';
export {
  ConfigError,
  cwConfigSchema,
  loadConfig,
  checkConfigText,
  configFieldNames,
  configFile,
  readConfigText,
  type ConfigCheck,
  type ConfigCheckOptions,
} from './config/cw-config.js';
export { parseConfigKey, formatConfigPath, ConfigKeyError } from './config/config-key-path.js';
export { formatConfigProblem, describeFound, knownFieldsAt, type ConfigProblem } from './config/config-problems.js';
export { nodeAt, positionAt, type ConfigPathSegment } from './config/config-text.js';
export { editConfigFile, type ConfigEdit } from './config/edit-config-file.js';
export { userFactLabels } from './config/user-fact-labels.js';
export { safeConfigValue } from './redaction/safe-config-value.js';
export { safeUserLabel, isShowableUserLabel } from './redaction/safe-user-label.js';
export { configRouteProblems } from './config/config-route-problems.js';
export { closestWord } from './text/closest-word.js';
