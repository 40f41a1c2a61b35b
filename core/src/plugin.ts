// The plugin contract, @cw/core/plugin: what a plugin's `register(api)` receives and the types of
// everything it hands back (rows, dialects, refiners, tools, hook taps). Plugins import only this
// entry, and only types from it: at run time cw hands `register` all it needs (docs/plugin-authors.md).
// Hosts import @cw/core (index.ts). This entry is bundled on its own, so it may export types and
// constants but nothing with state or identity (a class, a registry): a copy here would not be the host's.

export type { JsonValue } from './canonical/canonical-json.js';
export {
  PLUGIN_API_VERSION,
  type PluginApi,
  type PluginApiV2,
  type PluginHooks,
  type PluginHooksV2,
  type PluginTapOptions,
  type RegisterPlugin,
  type RegisterPluginV2,
  type PluginDescriptor,
  type PluginNoticeKind,
  type PluginGateReason,
} from './plugins/plugin-api.js';
export {
  PLUGIN_API_VERSIONS,
  SERVED_PLUGIN_API_VERSIONS,
  type PluginApiVersionEntry,
} from './plugins/plugin-api-versions.js';
export type { LoadedPlugin } from './plugins/plugin-registry.js';
export type { CapabilityRow, CapabilityRowInput, ModelOverrideInput } from './route/capability-row.js';
export type { ModelPriceInput } from './route/model-price.js';
export type { CustomRouteConfig } from './config/cw-config.js';
export type { ResolvedRoute, RouteQuery } from './route/route-types.js';
export type { ConversationMessage, ToolCall } from './prompt/conversation.js';
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
export type { ProjectionContext, ToolProjection, ToolProjectionWarning } from './tools/tool-projection-types.js';
export type {
  ToolImplementation,
  ToolContext,
  ToolOutcome,
  ToolArguments,
  ToolLimits,
  WorkspaceFiles,
  OpenedWorkspaceEntry,
  ProposedFileChange,
} from './tools/tool-contract.js';
// The turn's hooks (docs/plugin-authors.md, "Turn hooks"): the payloads a plugin's taps receive.
export { TURN_STAGES } from './turn/turn-stages.js';
export type { GateStop, GatePhase, PrepareContext, LoadStateContext, TurnNotice } from './turn/turn-hooks.js';
export type { NoticeField, NoticeFieldType, NoticeValue } from './turn/notice-kinds.js';
export type {
  CoreGateContext as GateContext,
  CoreTurnDraft as TurnDraft,
  CoreRequestContext as RequestContext,
  CoreSavedContext as SavedContext,
} from './turn/core-turn-types.js';
export type { PluginTurnHooks, PluginTurnTapOptions, PluginGateStop } from './plugins/plugin-turn-hooks.js';
export type { CwSnapshot } from './snapshot/snapshot.js';
