import { canonicalBody, type CanonicalBody } from './canonical/canonical-body.js';
import { loadedToolNames } from './catalog/defer-catalog.js';
import { toolSurfaceFor } from './catalog/tool-surface-cache.js';
import type { BodyLayout, BuildContext, Entrypoint, ReasoningPlan, WireBody } from './body/wire-body.js';
import { planReasoning } from './body/plan-reasoning.js';
import { outputCapFor } from './body/output-cap.js';
import { placePromptCacheKey, promptCacheKey } from './body/prompt-cache-key.js';
import { keepLatestLayout } from './kept-layouts.js';
import type { ConversationMessage } from './prompt/conversation.js';
import {
  redactOutboundLayers,
  redactOutboundMessages,
  type OutboundRedactionCounts,
} from './prompt/redact-outbound-messages.js';
import { repairToolHistory } from './prompt/repair-tool-history.js';
import { selectReplay } from './prompt/select-replay.js';
import { composeSystemPrompt, type SystemPrompt } from './prompt/compose-system-prompt.js';
import type { CapabilityRow, Dialect, RouteShape } from './route/capability-row.js';
import { endpointUrl } from './route/endpoint-url.js';
import { resolveRoute, wireModelFor } from './route/resolve-route.js';
import type { ResolvedRoute, RouteQuery } from './route/route-types.js';
import type { CwSnapshot } from './snapshot/snapshot.js';
import { EMPTY_PROJECTION, ToolChoiceError } from './tools/project-tools.js';
import type { ProjectionContext, ToolProjection } from './tools/tool-projection-types.js';
import type { ToolDefinition } from './tools/tool-definition.js';
import { renderPrompt, withoutImages, type TurnPrompt } from './prompt/user-message.js';
import {
  inlineTurnContexts,
  placeTurnContext,
  withTurnContext,
  type TurnContextPlacement,
} from './prompt/turn-context-message.js';
import { userAgent } from './transport/user-agent.js';

// The largest body whose layout is kept until the next (kept-layouts.ts).
const KEPT_BODY_BYTES = 256 * 1024;

/** The one value that both preview describes and send puts on the wire. */
export interface PreparedOutboundRequest {
  readonly dialect: Dialect;
  readonly routeShape: RouteShape;
  readonly route: ResolvedRoute;
  readonly wireModel: string;
  readonly entrypoint: Entrypoint;
  /** The full POST URL (never printed: it may carry a secret path). */
  readonly url: string;
  /** Non-secret headers, the User-Agent included; the credential is added by the transport from `apiKeyEnv`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly apiKeyEnv: string | null;
  readonly body: WireBody;
  /** What the dialect says about the finished body: its regions and the wire facts the manifest reports. */
  readonly layout: BodyLayout;
  /**
   * Both digests of the body with the sizes of its parts, which the manifest and the byte classes
   * read; its `wireText` is the exact bytes the transport sends, written when first read.
   */
  readonly canonical: CanonicalBody;
  readonly projection: ToolProjection;
  readonly reasoning: ReasoningPlan | null;
  readonly system: SystemPrompt;
  /** The active catalog the projection started from (with `search_tools` when tools were deferred by size). */
  readonly activeTools: readonly ToolDefinition[];
  /** The tools kept back from this request, in catalog order: what `search_tools` searches. */
  readonly deferredTools: readonly ToolDefinition[];
  /** Whether the catalog was too large for the route and `search_tools` went up front. */
  readonly searchable: boolean;
  /** The outbound conversation: stored history plus the new user message, secrets replaced, turn contexts inline. */
  readonly messages: readonly ConversationMessage[];
  /** The output cap the body carries; null when the route sends none. */
  readonly outputCapTokens: number | null;
  /** What the input budget keeps free for the reply: the cap, or the row's reservation when none is sent. */
  readonly outputReservationTokens: number;
  /** Secrets replaced in the outbound text, counted by where they were. */
  readonly outboundRedaction: OutboundRedactionCounts;
  /** The body key that carries the session's prompt-cache key, or null when the route takes none. */
  readonly promptCacheKeyField: string | null;
  /**
   * The new user message as the session stores it (before outbound redaction), with the turn-context
   * block it carried; null on a continuation.
   */
  readonly userMessage: Extract<ConversationMessage, { role: 'user' }> | null;
  /** Whether the turn-context block leads the new user message, and the block (docs/project-context.md). */
  readonly turnContext: TurnContextPlacement;
  /** What the prompt's file mentions became on this route (docs/file-mentions.md). */
  readonly promptFiles: PromptFileCounts;
}

/** Files a prompt mentioned: text files inlined, images attached, images left out on a route without image input. */
export interface PromptFileCounts {
  readonly textFiles: number;
  readonly attachedImages: number;
  readonly strippedImages: number;
}

/** The tool surface of a turn: what projection started from and what it produced. */
export interface PreparedToolSurface {
  readonly activeTools: readonly ToolDefinition[];
  /** The tools kept back from this request (config-deferred ones and those deferred by size). */
  readonly deferredTools: readonly ToolDefinition[];
  readonly projection: ToolProjection;
}

/**
 * Preparation failed after the route resolved; the message is raw and is redacted before printing.
 * When the failure came after projection, the tool surface is attached: it is still exact.
 */
export class RequestPreparationError extends Error {
  override readonly name = 'RequestPreparationError';
  constructor(
    message: string,
    readonly toolSurface: PreparedToolSurface | null = null,
  ) {
    super(message);
  }
}

/**
 * The seam: prompt -> route -> tools -> body. Pure with respect to the snapshot: it reads config,
 * session and plugin state and writes nothing, so preview can call it freely and send can trust it.
 */
export function prepareOutboundRequest(
  snapshot: CwSnapshot,
  /**
   * The new user message (typed text, or a prompt resolved as a submit resolves it), or undefined for
   * an agent-loop continuation (the history ends with tool results).
   */
  prompt: TurnPrompt | undefined,
  entrypoint: Entrypoint,
): PreparedOutboundRequest {
  const { hooks } = snapshot.registry;
  const route = resolveRoute(hooks, {
    routeId: snapshot.config.route ?? snapshot.defaultRouteId,
    config: snapshot.config,
    row: rowLookup(snapshot.registry),
  });
  const { row } = route;
  // The catalog narrowed by the gates and split for the route, kept per catalog (catalog/tool-surface-cache.ts).
  // A catalog larger than the route takes keeps its MCP tools back behind search_tools; what earlier
  // searches in this session loaded comes up front (read from the session, so preview and send agree).
  const {
    upFront: activeTools,
    deferred: deferredTools,
    searchable,
  } = toolSurfaceFor({
    catalog: snapshot.catalog,
    gates: snapshot.config.tools,
    maxTools: row.tool_schema.max_tools,
    loaded: loadedToolNames(snapshot.session.messages),
    serverOrder: Object.keys(snapshot.config.mcpServers),
  });
  // The prompt's mentions become the user message this route is sent; a route without image input
  // gets no image parts, neither new nor stored ones.
  const rendered = prompt === undefined ? null : renderPrompt(prompt, row.image_input);
  // The turn context leads the new message, never the system prompt: the cached prefix stays put.
  const turnContext = placeTurnContext(
    snapshot.turnContext,
    snapshot.purpose,
    snapshot.session.messages,
    rendered !== null,
  );
  const userMessage = rendered === null ? null : withTurnContext(rendered.message, turnContext);
  const history = row.image_input ? snapshot.session.messages : withoutImages(snapshot.session.messages);
  // Secrets go before anything reads the text: the body, the auto reasoning tier and the cache key.
  const outbound = redactOutboundMessages(
    selectReplay(
      repairToolHistory(userMessage === null ? history : [...history, userMessage]),
      row.dialect,
      row.reasoning?.replay ?? 'tool-loop',
    ),
    snapshot.config.redact_outbound,
  );
  // The auto reasoning tier reads what the person wrote; the dialect reads the text as sent.
  const latestUser = outbound.messages.findLast((message) => message.role === 'user');
  const reasoning = planReasoning(row, snapshot.config.reasoning, latestUser?.content ?? '');
  const messages = inlineTurnContexts(outbound.messages);
  const projectionContext: ProjectionContext = {
    row,
    tools: activeTools,
    deferredTools,
    toolChoice: 'auto',
    reasoningActive: reasoning !== null && reasoning.wireValue !== null,
  };
  const projection = project(hooks, projectionContext);
  const toolSurface: PreparedToolSurface = { activeTools, deferredTools, projection };
  const layers = redactOutboundLayers(snapshot.promptLayers ?? [], snapshot.config.redact_outbound);
  const system = composeSystemPrompt(layers.layers);
  const { capTokens, reservationTokens } = outputCapFor(row);
  const wireModel = wireModelFor(route);
  const context: BuildContext = {
    row,
    wireModel,
    entrypoint,
    system: system.text,
    messages,
    tools: projection.wireTools,
    toolChoice: projection.toolChoice,
    outputCapTokens: capTokens ?? reservationTokens,
    reasoning,
  };
  const dialect = snapshot.registry.dialect(row.dialect);
  if (!dialect) {
    throw new RequestPreparationError(
      `no loaded plugin builds ${row.dialect} bodies; reinstall cw or the dialect plugin`,
      toolSurface,
    );
  }
  let body: WireBody;
  try {
    // The dialect builds, the core places reasoning (stage 50), then the route's refiners run.
    body = hooks.buildBody.call(dialect.buildBody(context), context);
  } catch (error) {
    // A plugin threw: the turn cannot be built, but route and tools were already decided.
    throw new RequestPreparationError(
      `building the ${row.dialect} body failed: ${(error as Error).message}`,
      toolSurface,
    );
  }
  const promptCacheKeyField = row.prompt_cache?.key_field ?? null;
  // Worked out only for a route that takes one: the key hashes the conversation's first message.
  if (promptCacheKeyField !== null) {
    placePromptCacheKey(body, promptCacheKeyField, promptCacheKey(snapshot.session.name, messages));
  }
  // Keys the route never takes go last, after every tap, so no plugin can put one back.
  for (const key of row.omit_body_keys) delete body[key];
  // The layout names the turn items, which the digests write one by one; a body that is not JSON is
  // still reported before a layout that could not be read.
  let layout: BodyLayout | undefined;
  let layoutError: unknown;
  try {
    layout = dialect.describeBody(body);
  } catch (error) {
    layoutError = error;
  }
  let canonical: CanonicalBody;
  try {
    canonical = canonicalBody(body, layout?.itemsKey || null);
  } catch (error) {
    throw new RequestPreparationError(
      `the ${row.dialect} body is not valid JSON: ${(error as Error).message}`,
      toolSurface,
    );
  }
  if (layout === undefined) {
    throw new RequestPreparationError(
      `describing the ${row.dialect} body failed: ${(layoutError as Error).message}`,
      toolSurface,
    );
  }
  // A body is built member by member; the newest small one of each dialect is kept, so the next is
  // built through layouts that are still there (kept-layouts.ts). A large one would cost more to keep.
  if (canonical.wireBytes <= KEPT_BODY_BYTES) keepLatestLayout(row.dialect, body);
  return {
    dialect: row.dialect,
    routeShape: row.route_shape,
    route,
    wireModel,
    entrypoint,
    url: endpointUrl(row, { wireModel, entrypoint }),
    headers: {
      'content-type': 'application/json',
      accept: asksForStream(layout, row, entrypoint) ? 'text/event-stream' : 'application/json',
      'user-agent': userAgent(),
      ...row.auth.headers,
    },
    apiKeyEnv: row.auth.api_key_env,
    body,
    layout,
    canonical,
    projection,
    reasoning,
    system,
    activeTools,
    deferredTools,
    searchable,
    messages,
    outputCapTokens: capTokens,
    outputReservationTokens: reservationTokens,
    // Written out rather than spread: the same members in the same order, without a copy's slow path.
    outboundRedaction: {
      enabled: outbound.counts.enabled,
      userText: outbound.counts.userText,
      toolResults: outbound.counts.toolResults,
      systemPrompt: layers.count,
    },
    promptCacheKeyField,
    userMessage,
    turnContext,
    promptFiles: {
      textFiles: rendered?.textFileCount ?? 0,
      attachedImages: rendered?.attachedImageCount ?? 0,
      strippedImages: rendered?.strippedImageCount ?? 0,
    },
  };
}

// One lookup function per registry rather than a closure per request: a preview creates as few
// functions as it can (docs/performance.md).
const rowLookups = new WeakMap<CwSnapshot['registry'], RouteQuery['row']>();

function rowLookup(registry: CwSnapshot['registry']): RouteQuery['row'] {
  let lookup = rowLookups.get(registry);
  if (lookup === undefined) {
    lookup = (routeId) => registry.row(routeId);
    rowLookups.set(registry, lookup);
  }
  return lookup;
}

/**
 * Whether the request asks for a stream: read off the finished body when it has a stream field (a
 * dialect may stream even on the blocking entry point), else from the URL the route streams on.
 */
function asksForStream(layout: BodyLayout, row: CapabilityRow, entrypoint: Entrypoint): boolean {
  if (layout.streamField !== null) return layout.streamField;
  return entrypoint === 'streaming' && row.endpoint.streaming_path !== null;
}

/** Runs the projectTools hook; a named tool_choice error stays typed, any other tap failure is a preparation failure. */
function project(hooks: CwSnapshot['registry']['hooks'], context: ProjectionContext): ToolProjection {
  try {
    return hooks.projectTools.call(EMPTY_PROJECTION, context);
  } catch (error) {
    if (error instanceof ToolChoiceError) throw error;
    throw new RequestPreparationError(`tool projection failed: ${(error as Error).message}`);
  }
}
