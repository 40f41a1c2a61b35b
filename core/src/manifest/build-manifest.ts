import { canonicalJson } from '../canonical/canonical-json.js';
import { sha256Hex } from '../canonical/sha256.js';
import type { BodyLayout, Entrypoint } from '../body/wire-body.js';
import { narrowCatalog, surfaceBudget } from '../catalog/narrow-catalog.js';
import {
  RequestPreparationError,
  prepareOutboundRequest,
  type PreparedOutboundRequest,
  type PreparedToolSurface,
} from '../prepare-outbound-request.js';
import { BUNDLED_BASE_PROMPT } from '../prompt/base-prompt.js';
import { RoutePlanError } from '../route/resolve-route.js';
import {
  endpointFingerprint,
  endpointHostClass,
  safeCatalogModel,
  safeErrorText,
  safeIdentifier,
  safePackageName,
  safePhrase,
} from '../redaction/index.js';
import type { CwSnapshot } from '../snapshot/snapshot.js';
import { ToolChoiceError } from '../tools/project-tools.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { byteClasses, classValues, type ByteClasses } from './byte-classes.js';
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
import { reasoningReceipt } from './reasoning-receipt.js';
import { estimateTokens, inputBudgetCeiling, inputHeadroom, type TokenEstimates } from './token-estimates.js';
import { unavailable, type TurnReason } from './unavailable-reason.js';

// Diagnostics name at most this many tools; the rest are counted, so a huge catalog cannot flood output.
const MAX_LISTED_TOOLS = 8;
// cw has no overflow recovery: a real turn refuses to send, so the body is not what would be sent.
const OVERFLOW_DETAIL = 'the request does not fit the input budget of the route, so cw send would refuse it';
const OUTPUT_CAP_FIELDS = ['max_tokens', 'max_completion_tokens', 'max_output_tokens'] as const;
const BASE_PROMPT_ORIGIN = 'bundled with this cw build';

/** The input budget a turn overflows, in estimated tokens. */
export interface ContextOverflow {
  readonly estimatedInputTokens: number;
  readonly inputBudgetTokens: number;
}

/** The manifest and, when the body is exact, the prepared request it describes (send reuses it). */
export interface PreviewResult {
  readonly manifest: RequestManifest;
  readonly prepared: PreparedOutboundRequest | null;
  /** Set when the body does not fit the route's input budget; send refuses such a turn. */
  readonly overflow: ContextOverflow | null;
}

/** Options of one preview. */
export interface PreviewOptions {
  /** Count tokens with the route's offline tokenizer (default true); send skips it, it shows no counts. */
  readonly offlineTokenizer?: boolean;
}

/**
 * Describes the next turn for `prompt` without sending anything. Every section is exact or carries
 * a typed reason; the precedence follows what a real turn would do first.
 */
export function previewRequest(
  snapshot: CwSnapshot,
  prompt: string | undefined,
  entrypoint: Entrypoint,
  options: PreviewOptions = {},
): PreviewResult {
  const session = sessionFacts(snapshot, prompt !== undefined);
  const manifest = (
    route: RequestManifest['route'],
    tools: RequestManifest['tools'],
    body: RequestManifest['body'],
  ): RequestManifest => ({
    schema_version: MANIFEST_SCHEMA_VERSION,
    session,
    route,
    tools,
    body,
  });
  const blocked = turnBlocker(snapshot, prompt);
  if (blocked !== null || prompt === undefined) {
    const section = unavailable(blocked?.reason ?? 'no-hypothetical-prompt-supplied', blocked?.detail ?? null);
    return { manifest: manifest(section, section, section), prepared: null, overflow: null };
  }

  let prepared: PreparedOutboundRequest;
  try {
    prepared = prepareOutboundRequest(snapshot, prompt, entrypoint);
  } catch (error) {
    if (error instanceof RoutePlanError) {
      const failed = unavailable('route-plan-failed', safeErrorText(error.message));
      return { manifest: manifest(failed, failed, failed), prepared: null, overflow: null };
    }
    // Projection failed: there is no tool surface to describe, so all three sections fail together.
    if (error instanceof ToolChoiceError) {
      const failed = unavailable('request-preparation-failed', safeErrorText(error.message));
      return { manifest: manifest(failed, failed, failed), prepared: null, overflow: null };
    }
    if (error instanceof RequestPreparationError) {
      // Route facts are read off the prepared request, so they fail with it; a projected tool surface survives.
      const failed = unavailable('request-preparation-failed', safeErrorText(error.message));
      const tools = error.toolSurface === null ? failed : toolSection(snapshot, error.toolSurface);
      return { manifest: manifest(failed, tools, failed), prepared: null, overflow: null };
    }
    throw error;
  }

  const tools = toolSection(snapshot, prepared);
  let layout: BodyLayout;
  try {
    layout = describeLayout(snapshot, prepared);
  } catch (error) {
    const failed = unavailable('request-preparation-failed', safeErrorText((error as Error).message));
    return { manifest: manifest(failed, tools, failed), prepared: null, overflow: null };
  }
  const route = { exact: routeFacts(prepared) };
  // A catalog missing its MCP part is not "the same request without MCP tools": the body inherits.
  if ('unavailable' in tools) return { manifest: manifest(route, tools, tools), prepared: null, overflow: null };

  const measured = measureBody(prepared, layout);
  const overflow =
    measured.headroom < 0
      ? { estimatedInputTokens: measured.estimates.total_conservative, inputBudgetTokens: measured.ceiling }
      : null;
  const transforms = [...snapshot.pending.runtimeTransforms, ...(overflow ? [OVERFLOW_DETAIL] : [])];
  if (transforms.length > 0) {
    const body = unavailable('runtime-transforms-before-send', safeErrorText(transforms.join('; ')));
    return { manifest: manifest(route, tools, body), prepared: null, overflow };
  }
  const counts: TokenizerCounts =
    options.offlineTokenizer === false
      ? unavailable('offline-tokenizer-not-requested')
      : offlineTokenCounts(
          prepared.route.row.tokenizer ?? null,
          classValues(prepared.body, layout),
          prepared.canonicalBodyText,
        );
  return {
    manifest: manifest(route, tools, { exact: bodyFacts(prepared, layout, measured, counts) }),
    prepared,
    overflow: null,
  };
}

/** The dialect's layout of a prepared body; a dialect without a describer (or whose describer throws) cannot be previewed. */
export function describeLayout(snapshot: CwSnapshot, prepared: PreparedOutboundRequest): BodyLayout {
  let layout: BodyLayout | undefined;
  try {
    layout = snapshot.registry.hooks.describeBody.get(prepared.dialect)?.call(prepared.body);
  } catch (error) {
    throw new RequestPreparationError(`describing the ${prepared.dialect} body failed: ${(error as Error).message}`);
  }
  if (!layout) throw new RequestPreparationError(`no loaded plugin describes ${prepared.dialect} bodies`);
  return layout;
}

/** The first thing that stops a real turn before route planning, in the reference's order. */
function turnBlocker(
  snapshot: CwSnapshot,
  prompt: string | undefined,
): { reason: TurnReason; detail: string | null } | null {
  const pending = snapshot.pending;
  if (pending.goal === 'not-snapshottable') return { reason: 'goal-state-not-snapshottable', detail: null };
  if (pending.goal === 'budget-exhausted') return { reason: 'goal-token-budget-exhausted', detail: null };
  if (prompt === undefined) {
    return {
      reason: pending.autoRouting ? 'auto-route-unresolved-until-next-prompt' : 'no-hypothetical-prompt-supplied',
      detail: null,
    };
  }
  // Decided before hooks and prompt resolution: the classifier would need the resolved text, and preview never calls it.
  if (pending.autoRouting) return { reason: 'auto-route-classification-not-executed', detail: null };
  if (pending.messageSubmitHooks > 0) return { reason: 'message-submit-hooks-not-executed', detail: null };
  if (pending.promptResolutionError !== null)
    return { reason: 'prompt-resolution-failed', detail: safeErrorText(pending.promptResolutionError) };
  return null;
}

function sessionFacts(snapshot: CwSnapshot, promptSupplied: boolean): SessionFacts {
  const auto = snapshot.pending.autoRouting;
  const routeId = snapshot.config.route ?? snapshot.defaultRouteId;
  const catalog = new Set(snapshot.registry.row(routeId)?.model.catalog ?? []);
  const gates = snapshot.config.tools;
  return {
    agent_role: 'primary',
    lane_kind: 'cli-single-turn',
    session_name: safeIdentifier(snapshot.session.name),
    stored_message_count: snapshot.session.messages.length,
    requested_route: auto ? 'auto' : safeIdentifier(routeId),
    requested_model: auto
      ? 'auto'
      : snapshot.config.model === undefined
        ? 'route-default'
        : safeCatalogModel(snapshot.config.model, catalog),
    routing_mode: auto ? 'auto' : 'fixed-route',
    requested_reasoning: snapshot.config.reasoning ?? 'route-default',
    hypothetical_prompt_supplied: promptSupplied,
    mode: 'agent',
    approval_mode: 'tool-calls-not-executed',
    allowed_tool_gate_count: gates?.allow === undefined ? null : gates.allow.length,
    disallowed_tool_gate_count: gates?.deny === undefined ? null : gates.deny.length,
    base_prompt: {
      origin: BASE_PROMPT_ORIGIN,
      bytes: Buffer.byteLength(BUNDLED_BASE_PROMPT, 'utf8'),
      sha256: sha256Hex(BUNDLED_BASE_PROMPT),
    },
  };
}

function routeFacts(prepared: PreparedOutboundRequest): RouteFacts {
  const { row } = prepared.route;
  const stream = prepared.body['stream'];
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
    caller_entrypoint: prepared.entrypoint,
    // Read off the finished body: Responses streams on the blocking entry point too.
    body_stream_field: typeof stream === 'boolean' ? stream : null,
    context_limit_tokens: row.context.window_tokens,
    context_limit_source: row.context.source,
    route_input_limit_tokens: row.context.input_limit_tokens,
    route_output_limit_tokens: row.context.output_limit_tokens,
    billing:
      billing.kind === 'subscription'
        ? { kind: 'subscription', plan: safePhrase(billing.plan) }
        : { kind: billing.kind },
  };
}

/** Logical catalog identity: name, description and canonical schema of each active tool, in order. */
export function activeToolCatalogSha256(tools: readonly ToolDefinition[]): string {
  return sha256Hex(
    tools.map((tool) => `${tool.name}\u0001${tool.description}\u0001${canonicalJson(tool.input_schema)}\n`).join(''),
  );
}

function toolSection(snapshot: CwSnapshot, surface: PreparedToolSurface): RequestManifest['tools'] {
  if (snapshot.mcp.kind === 'not-snapshottable')
    return unavailable('mcp-state-not-snapshottable', safeErrorText(snapshot.mcp.detail));
  return { exact: toolFacts(snapshot, surface) };
}

function toolFacts(snapshot: CwSnapshot, surface: PreparedToolSurface): ToolFacts {
  const { projection, activeTools } = surface;
  const outcomes = projection.outcomes;
  const changed = outcomes.filter((entry) => entry.outcome !== 'exact');
  const gates = snapshot.config.tools;
  // Derived, not asserted: narrow under both budgets and compare what each would put up front.
  const standard = narrowCatalog(snapshot.catalog, gates, 'standard');
  const full = narrowCatalog(snapshot.catalog, gates, 'full');
  const wireNames = new Set(projection.wireTools.map((tool) => tool.name));
  return {
    catalog_tool_count: snapshot.catalog.length,
    deferred_tool_count: snapshot.catalog.filter((tool) => tool.deferred).length,
    gated_out_tool_count: standard.gatedOutCount,
    active_tool_count: projection.wireTools.length,
    active_tool_catalog_sha256: activeToolCatalogSha256(activeTools),
    tool_surface_budget: surfaceBudget(gates),
    standard_and_full_surfaces_collapsed:
      activeToolCatalogSha256(standard.active) === activeToolCatalogSha256(full.active),
    projection: {
      exact_count: outcomes.filter((entry) => entry.outcome === 'exact').length,
      relaxed_count: outcomes.filter((entry) => entry.outcome === 'relaxed').length,
      omitted_count: outcomes.filter((entry) => entry.outcome === 'omitted').length,
      changed: changed.slice(0, MAX_LISTED_TOOLS).map((entry) => ({
        name: safeIdentifier(entry.name),
        outcome: entry.outcome === 'relaxed' ? 'relaxed' : 'omitted',
        codes: (entry.outcome === 'relaxed' ? [...entry.rules] : entry.outcome === 'omitted' ? [entry.reason] : []).map(
          safeIdentifier,
        ),
      })),
      more_changed_count: Math.max(0, changed.length - MAX_LISTED_TOOLS),
    },
    mcp_server_count: snapshot.mcp.kind === 'snapshot' ? snapshot.mcp.serverCount : 0,
    mcp_tool_count: activeTools.filter((tool) => tool.origin.kind === 'mcp' && wireNames.has(tool.name)).length,
  };
}

/** Byte classes, estimates and the input budget of a prepared body: what decides whether it fits. */
interface MeasuredBody {
  readonly classes: ByteClasses;
  readonly estimates: TokenEstimates;
  readonly ceiling: number;
  readonly headroom: number;
}

function measureBody(prepared: PreparedOutboundRequest, layout: BodyLayout): MeasuredBody {
  const { row } = prepared.route;
  const classes = byteClasses(prepared.body, layout, prepared.canonicalBodyText);
  const estimates = estimateTokens(classes);
  const ceiling = inputBudgetCeiling(
    row.context.window_tokens,
    prepared.outputCapTokens,
    row.context.input_limit_tokens,
  );
  return { classes, estimates, ceiling, headroom: inputHeadroom(ceiling, estimates) };
}

function bodyFacts(
  prepared: PreparedOutboundRequest,
  layout: BodyLayout,
  measured: MeasuredBody,
  counts: TokenizerCounts,
): BodyFacts {
  const { body } = prepared;
  const { classes } = measured;
  const receipt = reasoningReceipt(body, layout, prepared.reasoning, prepared.route.row.reasoning);
  const systemSha =
    layout.systemValues.length === 0
      ? ''
      : sha256Hex(layout.systemValues.map((value) => canonicalJson(value)).join(''));
  const toolsSha = body['tools'] === undefined ? null : sha256Hex(canonicalJson(body['tools']));
  const capField = OUTPUT_CAP_FIELDS.find((field) => isCount(body[field])) ?? null;
  const cap = capField === null ? null : (body[capField] as number);
  return {
    reasoning_resolution: receipt.resolution,
    reasoning_wire_control_keys: receipt.controlKeys.map(safeIdentifier),
    reasoning_wire_effort: receipt.effort === null ? null : safeIdentifier(receipt.effort),
    reasoning_wire_effort_source: receipt.effortSource === null ? null : safeIdentifier(receipt.effortSource),
    reasoning_wire_budget_tokens:
      receipt.budgetTokens !== null && isCount(receipt.budgetTokens) ? receipt.budgetTokens : null,
    reasoning_wire_budget_source: receipt.budgetSource === null ? null : safeIdentifier(receipt.budgetSource),
    tool_choice: toolChoiceLabel(body['tool_choice']),
    system_prompt: {
      assembly: layout.systemValues.length === 0 ? 'none' : prepared.system.assembly,
      effective_system_canonical_json_bytes: classes.system,
      effective_system_sha256: systemSha,
    },
    message_count: classes.messageCount,
    attachment_count: classes.attachmentCount,
    body_canonical_json_bytes: classes.body,
    system_canonical_json_bytes: classes.system,
    tool_schema_canonical_json_bytes: classes.toolSchemas,
    message_canonical_json_bytes: classes.messages,
    tool_result_canonical_json_bytes: classes.toolResults,
    attachment_canonical_json_bytes: classes.attachments,
    framing_canonical_json_bytes: classes.framing,
    estimates: measured.estimates,
    offline_tokenizer_counts: counts,
    input_budget_ceiling_tokens: measured.ceiling,
    output_reservation_tokens: prepared.outputCapTokens,
    estimated_input_headroom_tokens: measured.headroom,
    wire_output_cap_tokens: cap,
    wire_output_cap_field: capField,
    provider_reported_usage: unavailable('provider-request-not-executed'),
    body_sha256: sha256Hex(prepared.canonicalBodyText),
    body_wire_sha256: sha256Hex(prepared.bodyText),
    body_wire_bytes: Buffer.byteLength(prepared.bodyText, 'utf8'),
    tool_schema_wire_sha256: toolsSha,
    local_system_tools_component_sha256: sha256Hex(`system=${systemSha}\ntools=${toolsSha ?? ''}\n`),
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A short shape label for tool_choice as the finished body carries it; a named tool shows its (redacted) name. */
export function toolChoiceLabel(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return safeIdentifier(value);
  if (typeof value !== 'object' || Array.isArray(value)) return safeIdentifier(typeof value);
  const record = value as Record<string, unknown>;
  const kind = typeof record['type'] === 'string' ? record['type'] : 'object';
  const nested = record['function'];
  // Chat nests the name under `function`; Responses and Anthropic put it beside `type`.
  const name =
    typeof nested === 'object' && nested !== null ? (nested as Record<string, unknown>)['name'] : record['name'];
  return typeof name === 'string' ? safeIdentifier(`${kind}:${name}`) : safeIdentifier(kind);
}
