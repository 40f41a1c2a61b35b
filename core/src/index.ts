// The public surface of @cw/core, in the order data flows: prompt -> route -> tools -> body -> describe | send.
export { canonicalJson, canonicalJsonBytes, CanonicalJsonError, type JsonValue } from './canonical/canonical-json.js';
export { sha256Hex, fingerprint } from './canonical/sha256.js';
export { cwHome } from './config/cw-home.js';
export { loadConfig, ConfigError, cwConfigSchema, type CwConfig, type CustomRouteConfig } from './config/cw-config.js';
export { CoreHooks } from './hooks.js';
export { PLUGIN_API_VERSION, type PluginApi, type RegisterPlugin, type PluginDescriptor } from './plugins/plugin-api.js';
export { PluginRegistry, type PluginProblem, type PluginProblemCode, type LoadedPlugin } from './plugins/plugin-registry.js';
export { loadPlugins } from './plugins/load-plugins.js';
export type { ConversationMessage, ToolCall } from './prompt/conversation.js';
export { BUNDLED_BASE_PROMPT } from './prompt/base-prompt.js';
export {
  labelSchema,
  REASONING_TIERS,
  capabilityRowSchema,
  type Dialect,
  type RouteShape,
  type ReasoningTier,
  type CapabilityRow,
  type CapabilityRowInput,
  type CapabilityRowData,
} from './route/capability-row.js';
export { resolveRoute, tapRowTable, wireModelFor, RoutePlanError, type RouteQuery, type ResolvedRoute } from './route/resolve-route.js';
export type { ToolDefinition, JsonSchema } from './tools/tool-definition.js';
export { BUILTIN_TOOLS } from './tools/builtin-tools.js';
export {
  projectTools,
  tapProjectionEngine,
  ToolChoiceError,
  type ToolProjection,
  type ToolOutcome,
  type ProjectionContext,
  type LogicalToolChoice,
} from './tools/project-tools.js';
export type {
  WireBody,
  Entrypoint,
  WireToolSpec,
  ReconciledToolChoice,
  ReasoningPlan,
  BuildContext,
  BodyLayout,
  AssistantReply,
  ReplyPayload,
} from './body/wire-body.js';
export { NOTHING_PENDING, type CwSnapshot, type McpState, type PendingState } from './snapshot/snapshot.js';
export { prepareOutboundRequest, RequestPreparationError, type PreparedOutboundRequest } from './prepare-outbound-request.js';
export { tapCoreStages, loadSnapshot } from './snapshot/load-snapshot.js';
export { previewRequest, describeLayout, activeToolCatalogSha256, type PreviewResult } from './manifest/build-manifest.js';
export { MANIFEST_SCHEMA_VERSION, type RequestManifest, type SessionFacts, type RouteFacts, type ToolFacts, type BodyFacts } from './manifest/manifest-types.js';
export { UNAVAILABLE_REASONS, REASON_LABELS, unavailable, type UnavailableReason, type Availability } from './manifest/unavailable-reason.js';
export { renderManifestTable, type TableOptions } from './manifest/render-manifest-table.js';
export { sendTurn, type SentTurn } from './send-turn.js';
export { sendPreparedRequest, MissingApiKeyError, ProviderError } from './transport/send-prepared-request.js';
export { readSession, appendTurn, sessionPath, SessionError } from './state/session-store.js';
export {
  safeIdentifier,
  safeCatalogModel,
  safePhrase,
  safePackageName,
  safeErrorText,
  endpointHostClass,
  endpointFingerprint,
  terminalSafe,
  terminalSafeMultiline,
} from './redaction/index.js';
