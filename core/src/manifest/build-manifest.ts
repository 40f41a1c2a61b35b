import { canonicalJson } from '../canonical/canonical-json.js';
import { sha256Hex } from '../canonical/sha256.js';
import type { BodyLayout } from '../body/wire-body.js';
import type { Entrypoint } from '../body/wire-body.js';
import { RequestPreparationError, prepareOutboundRequest, type PreparedOutboundRequest } from '../prepare-outbound-request.js';
import { BUNDLED_BASE_PROMPT } from '../prompt/base-prompt.js';
import { RoutePlanError } from '../route/resolve-route.js';
import { endpointFingerprint, endpointHostClass, safeCatalogModel, safeErrorText, safeIdentifier, safePackageName, safePhrase } from '../redaction/index.js';
import type { CwSnapshot } from '../snapshot/snapshot.js';
import { ToolChoiceError } from '../tools/project-tools.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { byteClasses } from './byte-classes.js';
import { MANIFEST_SCHEMA_VERSION, type BodyFacts, type RequestManifest, type RouteFacts, type SessionFacts, type ToolFacts } from './manifest-types.js';
import { reasoningReceipt } from './reasoning-receipt.js';
import { estimateTokens, inputBudgetCeiling } from './token-estimates.js';
import { unavailable, type Availability, type Unavailable, type UnavailableReason } from './unavailable-reason.js';

// Diagnostics name at most this many tools; the rest are counted, so a huge catalog cannot flood output.
const MAX_LISTED_TOOLS = 8;
const OVERFLOW_DETAIL = 'context-overflow recovery would trim or compact the conversation';

/** The manifest and, when the body is exact, the prepared request it describes (send reuses it). */
export interface PreviewResult {
  readonly manifest: RequestManifest;
  readonly prepared: PreparedOutboundRequest | null;
}

/**
 * Describes the next turn for `prompt` without sending anything. Every section is exact or carries
 * a typed reason; the precedence follows what a real turn would do first.
 */
export function previewRequest(snapshot: CwSnapshot, prompt: string | undefined, entrypoint: Entrypoint): PreviewResult {
  const session = sessionFacts(snapshot, prompt !== undefined, entrypoint);
  const all = (reason: UnavailableReason, detail: string | null = null): PreviewResult => {
    const section = unavailable(reason, detail);
    return { manifest: { schema_version: MANIFEST_SCHEMA_VERSION, session, route: section, tools: section, body: section }, prepared: null };
  };
  const pending = snapshot.pending;
  if (pending.goal === 'not-snapshottable') return all('goal-state-not-snapshottable');
  if (pending.goal === 'budget-exhausted') return all('goal-token-budget-exhausted');
  if (prompt === undefined) return all(pending.autoRouting ? 'auto-route-unresolved-until-next-prompt' : 'no-hypothetical-prompt-supplied');
  if (pending.autoRouting) return all('auto-route-classification-not-executed');
  if (pending.messageSubmitHooks > 0) return all('message-submit-hooks-not-executed');
  if (pending.promptResolutionError !== null) return all('prompt-resolution-failed', safeErrorText(pending.promptResolutionError));

  let prepared: PreparedOutboundRequest;
  try {
    prepared = prepareOutboundRequest(snapshot, prompt, entrypoint);
  } catch (error) {
    if (error instanceof RoutePlanError) return all('route-plan-failed', safeErrorText(error.message));
    if (error instanceof RequestPreparationError || error instanceof ToolChoiceError) {
      const failed = unavailable('request-preparation-failed', safeErrorText(error.message));
      return { manifest: { schema_version: MANIFEST_SCHEMA_VERSION, session, route: failed, tools: failed, body: failed }, prepared: null };
    }
    throw error;
  }

  const layout = describeLayout(snapshot, prepared);
  const route: Availability<RouteFacts> = { exact: routeFacts(prepared) };
  const tools: Availability<ToolFacts> =
    snapshot.mcp.kind === 'not-snapshottable'
      ? unavailable('mcp-state-not-snapshottable', safeErrorText(snapshot.mcp.detail))
      : { exact: toolFacts(snapshot, prepared) };
  let body: Availability<BodyFacts>;
  if ('unavailable' in tools) {
    // A catalog missing its MCP part is not "the same request without MCP tools": the body inherits.
    body = tools as Unavailable;
  } else {
    const facts = bodyFacts(prepared, layout);
    const transforms = [...pending.runtimeTransforms];
    if (facts.estimated_input_headroom_tokens < 0) transforms.push(OVERFLOW_DETAIL);
    body = transforms.length > 0 ? unavailable('runtime-transforms-before-send', safeErrorText(transforms.join('; '))) : { exact: facts };
  }
  const exact = 'exact' in body;
  return { manifest: { schema_version: MANIFEST_SCHEMA_VERSION, session, route, tools, body }, prepared: exact ? prepared : null };
}

/** The dialect's layout of a prepared body; a dialect without a describer cannot be previewed. */
export function describeLayout(snapshot: CwSnapshot, prepared: PreparedOutboundRequest): BodyLayout {
  const layout = snapshot.registry.hooks.describeBody.get(prepared.dialect)?.call(prepared.body);
  if (!layout) throw new RequestPreparationError(`no loaded plugin describes ${prepared.dialect} bodies`);
  return layout;
}

function sessionFacts(snapshot: CwSnapshot, promptSupplied: boolean, entrypoint: Entrypoint): SessionFacts {
  const routeId = snapshot.config.route ?? snapshot.defaultRouteId;
  const catalog = catalogOf(snapshot, routeId);
  return {
    agent_role: 'primary',
    session: safeIdentifier(snapshot.session.name),
    stored_message_count: snapshot.session.messages.length,
    requested_route: safeIdentifier(routeId),
    requested_model: snapshot.pending.autoRouting ? 'auto' : snapshot.config.model === undefined ? 'route-default' : safeCatalogModel(snapshot.config.model, catalog),
    auto_model_routing: snapshot.pending.autoRouting,
    requested_reasoning: snapshot.config.reasoning ?? 'route-default',
    hypothetical_prompt_supplied: promptSupplied,
    caller_entrypoint: entrypoint,
    base_prompt: { origin: 'bundled with this cw build', bytes: Buffer.byteLength(BUNDLED_BASE_PROMPT, 'utf8'), sha256: sha256Hex(BUNDLED_BASE_PROMPT) },
  };
}

function catalogOf(snapshot: CwSnapshot, routeId: string): ReadonlySet<string> {
  return new Set(snapshot.registry.row(routeId)?.model.catalog ?? []);
}

function routeFacts(prepared: PreparedOutboundRequest): RouteFacts {
  const { row } = prepared.route;
  const stream = prepared.body['stream'];
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
    caller_entrypoint: prepared.entrypoint,
    body_stream_field: typeof stream === 'boolean' ? stream : null,
    context_limit_tokens: row.context.window_tokens,
    context_limit_source: row.context.source,
    route_input_limit_tokens: row.context.input_limit_tokens,
    route_output_limit_tokens: row.context.output_limit_tokens,
    billing: row.billing,
  };
}

/** Logical catalog identity: name, description and canonical schema of each active tool, in order. */
export function activeToolCatalogSha256(tools: readonly ToolDefinition[]): string {
  return sha256Hex(tools.map((tool) => `${tool.name}\u0001${tool.description}\u0001${canonicalJson(tool.input_schema)}\n`).join(''));
}

function toolFacts(snapshot: CwSnapshot, prepared: PreparedOutboundRequest): ToolFacts {
  const outcomes = prepared.projection.outcomes;
  const changed = outcomes.filter((entry) => entry.outcome !== 'exact');
  const wireNames = new Set(prepared.projection.wireTools.map((tool) => tool.name));
  const mcpTools = prepared.activeTools.filter((tool) => tool.origin.kind === 'mcp' && wireNames.has(tool.name));
  return {
    catalog_tool_count: snapshot.catalog.length,
    deferred_tool_count: snapshot.catalog.filter((tool) => tool.deferred).length,
    active_tool_count: prepared.projection.wireTools.length,
    active_tool_catalog_sha256: activeToolCatalogSha256(prepared.activeTools),
    projection: {
      exact: outcomes.filter((entry) => entry.outcome === 'exact').length,
      relaxed: outcomes.filter((entry) => entry.outcome === 'relaxed').length,
      omitted: outcomes.filter((entry) => entry.outcome === 'omitted').length,
      changed: changed.slice(0, MAX_LISTED_TOOLS).map((entry) => ({
        name: safeIdentifier(entry.name),
        outcome: entry.outcome === 'relaxed' ? 'relaxed' : 'omitted',
        codes: entry.outcome === 'relaxed' ? [...entry.rules] : entry.outcome === 'omitted' ? [entry.reason] : [],
      })),
      more: Math.max(0, changed.length - MAX_LISTED_TOOLS),
    },
    mcp_server_count: snapshot.mcp.kind === 'snapshot' ? snapshot.mcp.serverCount : 0,
    mcp_tool_count: mcpTools.length,
  };
}

function bodyFacts(prepared: PreparedOutboundRequest, layout: BodyLayout): BodyFacts {
  const { body, route } = prepared;
  const classes = byteClasses(body, layout);
  const estimates = estimateTokens(classes);
  const receipt = reasoningReceipt(body, layout, prepared.reasoning);
  const systemText = layout.systemValues.map((value) => canonicalJson(value)).join('');
  const systemSha = layout.systemValues.length === 0 ? '' : sha256Hex(systemText);
  const toolsSha = body['tools'] === undefined ? null : sha256Hex(canonicalJson(body['tools']));
  const capField = route.row.output_cap.field;
  const cap = capField === null ? undefined : body[capField];
  const ceiling = inputBudgetCeiling(route.row.context.window_tokens, prepared.outputCapTokens, route.row.context.input_limit_tokens);
  return {
    reasoning_resolution: receipt.resolution,
    reasoning_wire_control_keys: receipt.controlKeys,
    reasoning_wire_effort: receipt.effort === null ? null : safeIdentifier(receipt.effort),
    reasoning_wire_effort_source: receipt.effortSource,
    reasoning_wire_budget_tokens: receipt.budgetTokens,
    tool_choice: toolChoiceLabel(body['tool_choice']),
    prompt: {
      assembly: layout.systemValues.length === 0 ? 'none' : prepared.system.assembly,
      effective_system_canonical_json_bytes: classes.system,
      effective_system_sha256: systemSha,
    },
    message_count: classes.messageCount,
    attachment_count: classes.attachmentCount,
    canonical_json_bytes: {
      body: classes.body,
      system: classes.system,
      tool_schemas: classes.toolSchemas,
      messages: classes.messages,
      tool_results: classes.toolResults,
      attachments: classes.attachments,
      framing: classes.framing,
    },
    estimates,
    input_budget_ceiling_tokens: ceiling,
    estimated_input_headroom_tokens: ceiling - estimates.total_conservative,
    wire_output_cap_tokens: typeof cap === 'number' ? cap : null,
    wire_output_cap_field: typeof cap === 'number' ? capField : null,
    provider_reported_usage: unavailable('provider-request-not-executed'),
    body_sha256: sha256Hex(canonicalJson(body)),
    body_wire_sha256: sha256Hex(prepared.bodyText),
    body_wire_bytes: Buffer.byteLength(prepared.bodyText, 'utf8'),
    tool_schema_wire_sha256: toolsSha,
    local_system_tools_component_sha256: sha256Hex(`system=${systemSha}\ntools=${toolsSha ?? ''}\n`),
  };
}

function toolChoiceLabel(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return safeIdentifier(value);
  if (typeof value !== 'object' || Array.isArray(value)) return safeIdentifier(typeof value);
  const record = value as Record<string, unknown>;
  const kind = typeof record['type'] === 'string' ? record['type'] : 'object';
  const fn = record['function'];
  const name = typeof fn === 'object' && fn !== null ? (fn as Record<string, unknown>)['name'] : undefined;
  return typeof name === 'string' ? safeIdentifier(`${kind}:${name}`) : safeIdentifier(kind);
}
