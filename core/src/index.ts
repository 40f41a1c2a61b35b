// The public surface of @cw/core, in the order data flows: prompt -> route -> tools -> body -> describe | send.
export { canonicalJson, canonicalJsonBytes, CanonicalJsonError, type JsonValue } from './canonical/canonical-json.js';
export { sha256Hex, fingerprint } from './canonical/sha256.js';
export { cwHome } from './config/cw-home.js';
export {
  loadConfig,
  ConfigError,
  cwConfigSchema,
  type CwConfig,
  type CustomRouteConfig,
  type ToolGatesConfig,
} from './config/cw-config.js';
export { CoreHooks } from './hooks.js';
export {
  PLUGIN_API_VERSION,
  type PluginApi,
  type RegisterPlugin,
  type PluginDescriptor,
} from './plugins/plugin-api.js';
export {
  PluginRegistry,
  type PluginProblem,
  type PluginProblemCode,
  type LoadedPlugin,
} from './plugins/plugin-registry.js';
export { loadPlugins } from './plugins/load-plugins.js';
export type { ConversationMessage, ToolCall } from './prompt/conversation.js';
export { BUNDLED_BASE_PROMPT } from './prompt/base-prompt.js';
export {
  labelSchema,
  REASONING_TIERS,
  CONTEXT_SOURCES,
  OFFLINE_TOKENIZERS,
  type OfflineTokenizer,
  capabilityRowSchema,
  type Dialect,
  type RouteShape,
  type ReasoningTier,
  type CapabilityRow,
  type CapabilityRowInput,
  type CapabilityRowData,
} from './route/capability-row.js';
export {
  resolveRoute,
  tapRowTable,
  wireModelFor,
  RoutePlanError,
  type RouteQuery,
  type ResolvedRoute,
} from './route/resolve-route.js';
export type { ToolDefinition, JsonSchema } from './tools/tool-definition.js';
export { BUILTIN_TOOLS } from './tools/builtin-tools.js';
export {
  projectTools,
  reconcileToolChoice,
  tapProjectionEngine,
  ToolChoiceError,
  EMPTY_PROJECTION,
  type ToolProjection,
  type ToolOutcome,
  type ToolProjectionWarning,
  type OmittedToolNotice,
  type SentToolChoice,
  type ToolChoiceResolution,
  type ProjectionContext,
  type LogicalToolChoice,
} from './tools/project-tools.js';
export {
  SCHEMA_DIALECTS,
  SCHEMA_DIALECT_PRESETS,
  withSchemaDialectDefaults,
  type SchemaDialect,
  type ToolSchemaRules,
  type ToolSchemaRulesInput,
} from './tools/schema-dialects.js';
export { projectSchema, PROJECTION_RULES, type SchemaProjection } from './tools/projection/project-schema.js';
export {
  RELAXATION_CODES,
  OMISSION_CODES,
  type RelaxationCode,
  type OmissionCode,
} from './tools/projection/projection-codes.js';
export type { ProjectionRule, ToolDraft } from './tools/projection/projection-rule.js';
export { KNOWN_KEYWORDS } from './tools/projection/schema-keywords.js';
export { REASONING_PLACEMENT_STAGE } from './body/place-reasoning.js';
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
export {
  prepareOutboundRequest,
  RequestPreparationError,
  type PreparedOutboundRequest,
  type PreparedToolSurface,
} from './prepare-outbound-request.js';
export { tapCoreStages, loadSnapshot } from './snapshot/load-snapshot.js';
export {
  narrowCatalog,
  surfaceBudget,
  type NarrowedCatalog,
  type ToolSurfaceBudget,
} from './catalog/narrow-catalog.js';
export {
  previewRequest,
  describeLayout,
  activeToolCatalogSha256,
  toolChoiceLabel,
  type PreviewResult,
  type PreviewOptions,
  type ContextOverflow,
} from './manifest/build-manifest.js';
export {
  MANIFEST_SCHEMA_VERSION,
  requestManifestSchema,
  type RequestManifest,
  type SessionFacts,
  type RouteFacts,
  type ToolFacts,
  type BodyFacts,
  type ManifestSection,
  type TokenizerCounts,
} from './manifest/manifest-schema.js';
export { manifestJsonSchema, manifestJsonSchemaText } from './manifest/manifest-json-schema.js';
export {
  UNAVAILABLE_REASONS,
  TURN_REASONS,
  ROUTE_REASONS,
  TOOLS_REASONS,
  BODY_REASONS,
  USAGE_REASONS,
  TOKENIZER_REASONS,
  REASON_LABELS,
  unavailable,
  type UnavailableReason,
  type TurnReason,
  type TokenizerReason,
  type Unavailable,
} from './manifest/unavailable-reason.js';
export { renderManifestTable, TABLE_WIDTH, type TableOptions } from './manifest/render-manifest-table.js';
export {
  diffManifests,
  parseManifestText,
  ManifestInputError,
  MANIFEST_DIFF_VERSION,
  type ManifestDiff,
  type DiffGroup,
  type DiffGroupId,
  type ManifestDifference,
} from './manifest/diff-manifests.js';
export { renderManifestDiff } from './manifest/render-manifest-diff.js';
export { sendTurn, ContextOverflowError, type SentTurn } from './send-turn.js';
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
export { repairToolHistory, NOT_EXECUTED_RESULT } from './prompt/repair-tool-history.js';
