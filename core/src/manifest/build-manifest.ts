import { DEFAULT_SANDBOX_CONFIG, networkPolicyOf } from '../sandbox/sandbox-config.js';
import { turnHooksOf } from '../turn/core-turn-types.js';
import { canonicalJson } from '../canonical/canonical-json.js';
import { rememberedCanonicalSha256, rememberedSha256 } from '../canonical/remembered-sha256.js';
import type { Entrypoint, ToolChoiceFacts } from '../body/wire-body.js';
import { narrowCatalog, surfaceBudget } from '../catalog/narrow-catalog.js';
import { SEARCH_TOOLS_DEFINITION, SEARCH_TOOLS_NAME } from '../catalog/defer-catalog.js';
import type { MeasuredBody } from '../plan/measure-body.js';
import { planTurn, type TurnPlan } from '../plan-turn.js';
import type { PreparedOutboundRequest, PreparedToolSurface } from '../prepare-outbound-request.js';
import { BUNDLED_BASE_PROMPT } from '../prompt/base-prompt.js';
import {
  endpointFingerprint,
  endpointHostClass,
  safeCatalogModel,
  safeIdentifier,
  safeKeyPath,
  safePackageName,
  safePhrase,
} from '../redaction/index.js';
import type { ModelMatch } from '../route/model-facts.js';
import type { CwSnapshot } from '../snapshot/snapshot.js';
import type { TurnPrompt } from '../prompt/user-message.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { MAX_LISTED_TOOLS } from '../tools/max-listed-tools.js';
import { toolCatalogSha256 } from '../tools/tool-catalog-sha256.js';
import { classValues } from '../body/byte-classes.js';
import {
  MANIFEST_SCHEMA_VERSION,
  type BodyFacts,
  type RequestManifest,
  type RouteFacts,
  type SessionFacts,
  type TokenizerCounts,
  type ToolFacts,
} from './manifest-schema.js';
import { offlineTokenCounts } from './offline-token-counts.js';
import { inputCostUsd, priceBasisOf } from '../cost/step-cost.js';
import { wireModelFor } from '../route/resolve-route.js';
import { cachedRouteFacts } from './route-facts-cache.js';
import { cachedToolFacts, type ToolFactsInputs } from './tool-facts-cache.js';
import { credentialHeader } from '../transport/api-key.js';
import { userAgent } from '../transport/user-agent.js';
import { reasoningReceipt, valueAt } from './reasoning-receipt.js';
import { unavailable } from '../plan/unavailable-reason.js';
import type { ReasonPlace } from '../turn/reason-table.js';

const BASE_PROMPT_ORIGIN = 'bundled with this cw build';

/** The manifest and the plan it renders; `prepared` is the request send would put on the wire, when ready. */
export interface PreviewResult {
  readonly manifest: RequestManifest;
  readonly plan: TurnPlan;
  readonly prepared: PreparedOutboundRequest | null;
}

/** Options of one preview. */
export interface PreviewOptions {
  /** Count tokens with the route's offline tokenizer (default true); send skips it, it shows no counts. */
  readonly offlineTokenizer?: boolean;
}

/** Describes the next turn for `prompt` without sending anything: the rendering of its plan. */
export function previewRequest(
  snapshot: CwSnapshot,
  prompt: TurnPrompt | undefined,
  entrypoint: Entrypoint,
  options: PreviewOptions = {},
): PreviewResult {
  const plan = planTurn(snapshot, prompt, entrypoint);
  return {
    manifest: renderManifest(snapshot, plan, prompt !== undefined, options),
    plan,
    prepared: plan.status === 'ready' ? plan.prepared : null,
  };
}

/**
 * Renders a plan as a manifest. Every section is exact or carries the plan's typed reason; sections
 * decided before the blocking stage stay exact.
 */
export function renderManifest(
  snapshot: CwSnapshot,
  plan: TurnPlan,
  promptSupplied: boolean,
  options: PreviewOptions = {},
): RequestManifest {
  const session = sessionFacts(snapshot, promptSupplied, plan);
  if (plan.status === 'blocked') {
    const { reason, detail } = plan;
    const standing = (section: ReasonPlace) => unavailable(sectionReason(snapshot, section, reason), detail);
    const route = plan.prepared === null ? standing('route') : { exact: cachedRouteFacts(plan.prepared, routeFacts) };
    const tools =
      plan.toolSurface === null
        ? standing('tools')
        : plan.toolsUnknown !== null
          ? unavailable(sectionReason(snapshot, 'tools', plan.toolsUnknown.reason), plan.toolsUnknown.detail)
          : toolSection(snapshot, plan.toolSurface);
    return manifest(session, route, tools, standing('body'));
  }
  const { prepared, measured } = plan;
  const counts: TokenizerCounts =
    options.offlineTokenizer === false
      ? unavailable('offline-tokenizer-not-requested')
      : offlineTokenCounts(
          prepared.route.row.tokenizer ?? null,
          classValues(prepared.body, prepared.layout),
          () => prepared.canonical.text,
        );
  return manifest(session, { exact: cachedRouteFacts(prepared, routeFacts) }, toolSection(snapshot, prepared), {
    exact: bodyFacts(prepared, measured, counts),
  });
}

// Module-level rather than a closure per manifest: a preview creates as few functions as it can (docs/performance.md).
function manifest(
  session: SessionFacts,
  route: RequestManifest['route'],
  tools: RequestManifest['tools'],
  body: RequestManifest['body'],
): RequestManifest {
  return { schema_version: MANIFEST_SCHEMA_VERSION, session, route, tools, body };
}

/**
 * A plan's reason, checked against its registration to be one the section may carry: a plan blocks a
 * section only with such a reason.
 */
function sectionReason(snapshot: CwSnapshot, section: ReasonPlace, reason: string): string {
  if (!snapshot.registry.turn.reasons.mayStandIn(reason, section))
    throw new Error(`${reason} cannot stand in this manifest section`);
  return reason;
}

/**
 * The session section: the core's facts, then what each turn feature says of its state through
 * `describeSession` (the goal, a pending skill, auto routing, submit hooks). Every key is present
 * here in the schema's order, so a feature changes values, never the order.
 */
function sessionFacts(snapshot: CwSnapshot, promptSupplied: boolean, plan: TurnPlan): SessionFacts {
  const routeId = snapshot.config.route ?? snapshot.defaultRouteId;
  const gates = snapshot.config.tools;
  // A snapshot built by hand (tests, other hosts) may carry a config parsed before the field existed.
  const sandboxConfig = snapshot.config.sandbox ?? DEFAULT_SANDBOX_CONFIG;
  const facts: SessionFacts = {
    agent_role: 'primary',
    lane_kind: plan.input === 'continuation' ? 'agent-loop-continuation' : 'cli-single-turn',
    session_name: safeIdentifier(snapshot.session.name),
    stored_message_count: snapshot.session.messages.length,
    requested_route: safeIdentifier(routeId),
    requested_model:
      snapshot.config.model === undefined
        ? 'route-default'
        : safeCatalogModel(snapshot.config.model, new Set(snapshot.registry.row(routeId)?.model.catalog ?? [])),
    routing_mode: 'fixed-route',
    requested_reasoning: snapshot.config.reasoning ?? 'route-default',
    hypothetical_prompt_supplied: promptSupplied,
    mode: 'agent',
    approval_mode: snapshot.config.approval,
    sandbox: snapshot.sandbox ?? (sandboxConfig.mode === 'off' ? 'off' : 'unavailable'),
    sandbox_mode: sandboxConfig.mode,
    sandbox_network: networkPolicyOf(sandboxConfig.network),
    environment: snapshot.environment ?? null,
    allowed_tool_gate_count: gates?.allow === undefined ? null : gates.allow.length,
    disallowed_tool_gate_count: gates?.deny === undefined ? null : gates.deny.length,
    message_submit_hook_count: 0,
    pending_skill: null,
    goal_state: 'none',
    base_prompt: basePromptFacts(),
  };
  // One literal, the rare member added apart: members written after a spread are added key by key,
  // and such an object's layout is built again after every full collection (docs/performance.md).
  const unknownCalls = unknownEffectCallCount(snapshot.session.messages);
  const described = unknownCalls === 0 ? facts : withUnknownEffectCalls(facts, unknownCalls);
  return turnHooksOf(snapshot.registry).describeSession.call(described, snapshot);
}

/** The facts with `unknown_effect_calls` in its place in the schema's order, after the stored message count. */
function withUnknownEffectCalls(facts: SessionFacts, count: number): SessionFacts {
  const ordered: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(facts)) {
    ordered[key] = value;
    if (key === 'stored_message_count') ordered['unknown_effect_calls'] = count;
  }
  return ordered as unknown as SessionFacts;
}

// The bundled base prompt is the same text for the life of the process: its size and digest are taken once.
let basePrompt: SessionFacts['base_prompt'] | undefined;

function basePromptFacts(): SessionFacts['base_prompt'] {
  basePrompt ??= Object.freeze({
    origin: BASE_PROMPT_ORIGIN,
    bytes: Buffer.byteLength(BUNDLED_BASE_PROMPT, 'utf8'),
    sha256: rememberedSha256(BUNDLED_BASE_PROMPT),
  });
  return basePrompt;
}

function routeFacts(prepared: PreparedOutboundRequest): RouteFacts {
  const { row } = prepared.route;
  const billing = row.billing;
  return {
    provider_id: safeIdentifier(row.provider_id),
    provider_display: safePhrase(row.provider_display),
    route_id: safeIdentifier(row.route_id),
    route_defined_by: prepared.route.definedBy,
    registered_by: safePackageName(row.plugin),
    routing_source: 'active-fixed-route',
    dialect: prepared.dialect,
    route_shape: prepared.routeShape,
    endpoint_host_class: endpointHostClass(prepared.url),
    endpoint_fingerprint: endpointFingerprint(prepared.url),
    wire_model: safeCatalogModel(prepared.wireModel, new Set(row.model.catalog)),
    model_facts_source: modelFactsSource(prepared.route.modelFacts?.match ?? null),
    caller_entrypoint: prepared.entrypoint,
    // Read off the finished body: a dialect may stream on the blocking entry point too.
    body_stream_field: prepared.layout.streamField,
    context_limit_tokens: row.context.window_tokens,
    context_limit_source: row.context.source,
    route_input_limit_tokens: row.context.input_limit_tokens,
    route_output_limit_tokens: row.context.output_limit_tokens,
    billing:
      billing.kind === 'subscription'
        ? { kind: 'subscription', plan: safePhrase(billing.plan) }
        : { kind: billing.kind },
    request_headers: {
      // The transport adds the credential header when the route names a key variable; its value is never read here.
      names: [
        ...Object.keys(prepared.headers),
        ...(prepared.apiKeyEnv === null ? [] : [credentialHeader(row.auth, '')[0]]),
      ].map((name) => safeIdentifier(name.toLowerCase())),
      user_agent: userAgentLabel(prepared.headers['user-agent']),
    },
  };
}

function toolSection(snapshot: CwSnapshot, surface: PreparedToolSurface): RequestManifest['tools'] {
  const inputs: ToolFactsInputs = {
    catalog: snapshot.catalog,
    gates: snapshot.config.tools,
    activeTools: surface.activeTools,
    deferredTools: surface.deferredTools,
    projection: surface.projection,
    mcp: snapshot.mcp,
  };
  return { exact: cachedToolFacts(inputs, toolFacts) };
}

function toolFacts(inputs: ToolFactsInputs): ToolFacts {
  const { projection, activeTools, catalog, gates } = inputs;
  const outcomes = projection.outcomes;
  const changed = outcomes.filter((entry) => entry.outcome !== 'exact');
  // Derived, not asserted: narrow under both budgets and compare what each would put up front.
  const standard = narrowCatalog(catalog, gates, 'standard');
  const full = narrowCatalog(catalog, gates, 'full');
  // Names are unique in a catalog (MCP tools are namespaced), so the name says which tool it was.
  const originOf = new Map(activeTools.map((tool) => [tool.name, tool.origin.kind] as const));
  const wireNames = new Set(projection.wireTools.map((tool) => tool.name));
  const lines = new Map<ToolDefinition, string>();
  return {
    catalog_tool_count: catalog.length,
    // Catalog tools marked deferred, plus the ones a catalog too large for the route kept back behind search_tools.
    deferred_tool_count:
      catalog.filter((tool) => tool.deferred).length + inputs.deferredTools.filter((tool) => !tool.deferred).length,
    gated_out_tool_count: standard.gatedOutCount,
    active_tool_count: projection.wireTools.length,
    // Only on a catalog over the limit, so every other manifest keeps its shape.
    ...(wireNames.has(SEARCH_TOOLS_NAME) && activeTools.includes(SEARCH_TOOLS_DEFINITION)
      ? { search_tools_sent: true as const }
      : {}),
    active_tool_catalog_sha256: toolCatalogSha256(activeTools, lines),
    tool_surface_budget: surfaceBudget(gates),
    standard_and_full_surfaces_collapsed:
      toolCatalogSha256(standard.active, lines) === toolCatalogSha256(full.active, lines),
    projection: {
      exact_count: outcomes.filter((entry) => entry.outcome === 'exact').length,
      relaxed_count: outcomes.filter((entry) => entry.outcome === 'relaxed').length,
      omitted_count: outcomes.filter((entry) => entry.outcome === 'omitted').length,
      changed: changed.slice(0, MAX_LISTED_TOOLS).map((entry) => ({
        name: safeIdentifier(entry.name),
        tool_origin: originOf.get(entry.name) ?? 'plugin',
        outcome: entry.outcome === 'relaxed' ? 'relaxed' : 'omitted',
        codes: (entry.outcome === 'relaxed' ? [...entry.rules] : entry.outcome === 'omitted' ? [entry.reason] : []).map(
          safeIdentifier,
        ),
      })),
      more_changed_count: Math.max(0, changed.length - MAX_LISTED_TOOLS),
    },
    mcp_server_count: inputs.mcp.kind === 'snapshot' ? inputs.mcp.serverCount : 0,
    mcp_tool_count: activeTools.filter((tool) => tool.origin.kind === 'mcp' && wireNames.has(tool.name)).length,
  };
}

/** The request's input at the route's price for its model, or why there is none. */
function inputCostEstimate(prepared: PreparedOutboundRequest, tokens: number): BodyFacts['input_cost_estimate'] {
  const route = prepared.route;
  const basis = priceBasisOf(route.row, route.model, wireModelFor(route));
  if (basis.kind === 'unpriced') return unavailable(basis.reason);
  const { price } = basis;
  const rate = price.usd_per_mtok.input;
  if (rate === null) return unavailable('price-incomplete');
  return {
    exact: {
      basis: 'offline-estimate-at-input-price',
      estimated_input_tokens: tokens,
      usd_per_mtok: rate,
      usd: inputCostUsd(rate, tokens),
      // The pricing page is a URL, which the manifest never prints: its fingerprint names it.
      price_source: safePhrase(price.source),
      price_as_of: price.as_of,
    },
  };
}

function bodyFacts(prepared: PreparedOutboundRequest, measured: MeasuredBody, counts: TokenizerCounts): BodyFacts {
  const { body, layout } = prepared;
  const { classes } = measured;
  const receipt = reasoningReceipt(body, layout, prepared.reasoning, prepared.route.row.reasoning);
  const systemSha = layout.systemValues.length === 0 ? '' : rememberedCanonicalSha256(layout.systemValues);
  const tools = layout.toolsKey === null ? undefined : body[layout.toolsKey];
  // The tool declarations' canonical text comes from the body's one sorted view, not a second sort.
  const toolsText = layout.toolsKey === null ? undefined : prepared.canonical.valueText(layout.toolsKey);
  const toolsSha = tools === undefined ? null : rememberedSha256(toolsText ?? canonicalJson(tools));
  // The row names the cap's field; the finished body says whether it was sent (a route may omit it).
  const declaredCap = prepared.route.row.output_cap.field;
  const sentCap = declaredCap === null ? undefined : valueAt(body, declaredCap);
  const capField = isCount(sentCap) ? declaredCap : null;
  const cap = isCount(sentCap) ? sentCap : null;
  return {
    reasoning_resolution: receipt.resolution,
    reasoning_wire_control_keys: receipt.controlKeys.map(safeKeyPath),
    reasoning_wire_effort: receipt.effort === null ? null : safeIdentifier(receipt.effort),
    reasoning_wire_effort_source: receipt.effortSource === null ? null : safeKeyPath(receipt.effortSource),
    reasoning_wire_budget_tokens:
      receipt.budgetTokens !== null && isCount(receipt.budgetTokens) ? receipt.budgetTokens : null,
    reasoning_wire_budget_source: receipt.budgetSource === null ? null : safeKeyPath(receipt.budgetSource),
    tool_choice: toolChoiceLabel(layout.toolChoice),
    system_prompt: {
      assembly: layout.systemValues.length === 0 ? 'none' : prepared.system.assembly,
      layers: [
        { kind: 'base' as const, depth: 0, text: prepared.system.basePrompt, truncated: false },
        ...prepared.system.layers,
      ].map((layer) => ({
        layer_kind: layer.kind,
        folder_depth: layer.depth,
        layer_bytes: Buffer.byteLength(layer.text, 'utf8'),
        layer_sha256: rememberedSha256(layer.text),
        truncated: layer.truncated,
      })),
      effective_system_canonical_json_bytes: classes.system,
      effective_system_sha256: systemSha,
    },
    turn_context: {
      status: prepared.turnContext.status,
      context_bytes: prepared.turnContext.block === null ? null : Buffer.byteLength(prepared.turnContext.block, 'utf8'),
      context_sha256: prepared.turnContext.block === null ? null : rememberedSha256(prepared.turnContext.block),
    },
    message_count: classes.messageCount,
    attachment_count: classes.attachmentCount,
    prompt_files: {
      text_file_count: prepared.promptFiles.textFiles,
      attached_image_count: prepared.promptFiles.attachedImages,
      stripped_image_count: prepared.promptFiles.strippedImages,
    },
    body_canonical_json_bytes: classes.body,
    system_canonical_json_bytes: classes.system,
    tool_schema_canonical_json_bytes: classes.toolSchemas,
    message_canonical_json_bytes: classes.messages,
    tool_result_canonical_json_bytes: classes.toolResults,
    attachment_canonical_json_bytes: classes.attachments,
    framing_canonical_json_bytes: classes.framing,
    estimates: measured.estimates,
    offline_tokenizer_counts: counts,
    input_cost_estimate: inputCostEstimate(prepared, measured.estimates.total_conservative),
    input_budget_ceiling_tokens: measured.ceiling,
    output_reservation_tokens: prepared.outputReservationTokens,
    estimated_input_headroom_tokens: measured.headroom,
    wire_output_cap_tokens: cap,
    wire_output_cap_field: capField,
    provider_reported_usage: unavailable('provider-request-not-executed'),
    body_sha256: prepared.canonical.sha256,
    body_wire_sha256: prepared.canonical.wireSha256,
    body_wire_bytes: prepared.canonical.wireBytes,
    tool_schema_wire_sha256: toolsSha,
    local_system_tools_component_sha256: rememberedSha256(`system=${systemSha}\ntools=${toolsSha ?? ''}\n`),
    prompt_cache: {
      breakpoint_count: layout.cacheBreakpoints?.length ?? 0,
      breakpoint_regions: [...(layout.cacheBreakpoints ?? [])],
      // Read off the finished body: a key the route's omitted keys removed is not sent.
      cache_key_field:
        prepared.promptCacheKeyField !== null && valueAt(body, prepared.promptCacheKeyField) !== undefined
          ? prepared.promptCacheKeyField
          : null,
    },
    outbound_redaction: {
      enabled: prepared.outboundRedaction.enabled,
      user_text_replacements: prepared.outboundRedaction.userText,
      tool_result_replacements: prepared.outboundRedaction.toolResults,
      system_prompt_replacements: prepared.outboundRedaction.systemPrompt,
    },
  };
}

// cw's own User-Agent is built from checked parts and shown as is; a value a row set is redacted.
function userAgentLabel(value: string | undefined): string {
  if (value === undefined) return 'none';
  return value === userAgent() ? value : safePhrase(value);
}

function modelFactsSource(match: ModelMatch | null): RouteFacts['model_facts_source'] {
  if (match === null) return 'route-row';
  return match.by === 'id' ? 'model-id' : 'model-pattern';
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A short label for the body's tool choice; a named tool shows its (redacted) name. */
export function toolChoiceLabel(choice: ToolChoiceFacts | null): string | null {
  if (choice === null) return null;
  return safeIdentifier(choice.name === null ? choice.kind : `${choice.kind}:${choice.name}`);
}

/** How many calls have unknown effects because a killed cw never saved their results. */
function unknownEffectCallCount(messages: CwSnapshot['session']['messages']): number {
  let count = 0;
  for (const message of messages) if (message.role === 'tool' && message.status === 'unknown') count += 1;
  return count;
}
