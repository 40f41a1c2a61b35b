// The request manifest, defined once. The TypeScript types below are inferred from this schema,
// docs/manifest.schema.json is generated from it (npm run schema), and every manifest the tests
// produce is validated against that generated file. Object key order here is the JSON key order.
//
// Every string field holds a short label that crossed the redaction module (an identifier, a
// catalog model, a phrase, a package name, redacted error text), an enum, or a hash. No field can
// hold prompt text, message content, a schema, a credential, a URL path or an absolute path.
import type { z } from 'zod';
import { zod } from '../validation/lazy-zod.js';
import { APPROVAL_POSTURES } from '../config/approval-posture.js';
import { SANDBOX_MODES } from '../sandbox/sandbox-config.js';
import {
  CONTEXT_SOURCES,
  OFFLINE_TOKENIZERS,
  REASONING_SELECTIONS,
  bodyKeyPathSchema,
  labelSchema,
} from '../route/capability-row.js';
import { INPUT_COST_REASONS, TOKENIZER_REASONS, USAGE_REASONS } from '../plan/unavailable-reason.js';
import { NAMESPACED_NAME, type ReasonTable } from '../turn/reason-table.js';
import { TURN_CONTEXT_STATUSES } from '../prompt/turn-context-message.js';

/** Bumped only when a field is renamed or removed, so scripts can refuse a manifest they do not understand. */
export const MANIFEST_SCHEMA_VERSION = 1;

/**
 * Builds the schema over a reason table: a section's reason is one registered for it, or any
 * plugin's (`<package>:<label>`), whichever plugins a reader has installed. It is built on first
 * use, not at import: preview and send never validate their own output, so only `diff`, the schema
 * generator and the tests pay for constructing it.
 */
function buildManifestSchema(reasons: ReasonTable) {
  const z = zod();
  // Printable, single-line, bounded: what the redaction module guarantees for labels.
  const label = z
    .string()
    .min(1)
    .max(80)
    .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/);
  // Redacted error text: at most 200 bytes plus an ellipsis, one line.
  const detailText = z
    .string()
    .max(201)
    .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/);
  const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
  const count = z.number().int().nonnegative();
  const tokens = z.number().int().nonnegative();
  const sectionReasons = (section: ManifestSection) => {
    const [first = 'no-hypothetical-prompt-supplied', ...rest] = reasons.reasonsFor(section);
    return z.enum([first, ...rest]).or(z.string().regex(NAMESPACED_NAME));
  };

  function availability<Facts extends z.ZodType>(
    facts: Facts,
    reasons: readonly [string, ...string[]] | z.ZodType<string>,
    what: string,
  ) {
    const reason: z.ZodType<string> = Array.isArray(reasons) ? z.enum(reasons) : (reasons as z.ZodType<string>);
    return z.union([
      z.strictObject({ exact: facts.describe(`The ${what}, exactly as the next turn would have it.`) }),
      z.strictObject({
        unavailable: z
          .strictObject({
            reason: reason.describe('Typed reason; see docs/preview-request.md for what each one means.'),
            detail: detailText.nullable().describe('Redacted, allowlisted detail (e.g. a failure message), or null.'),
          })
          .describe(`Why the ${what} cannot be described exactly. An unavailable section carries no fields.`),
      }),
    ]);
  }

  const basePromptSchema = z.strictObject({
    origin: label.describe('Where the base-prompt bytes came from.'),
    bytes: count.describe('UTF-8 byte length of the effective base prompt (raw text, not JSON).'),
    sha256: sha256.describe('SHA-256 of the effective base prompt bytes.'),
  });

  /** Session facts: the user's selections and posture. Always exact. */
  const sessionFactsSchema = z.strictObject({
    agent_role: z.literal('primary').describe('Always `primary`: the manifest describes the primary agent turn only.'),
    lane_kind: z
      .enum(['cli-single-turn', 'agent-loop-continuation'])
      .describe(
        '`cli-single-turn` for a request a new prompt starts; `agent-loop-continuation` for the next step of a loop that stopped after running tools. There are no sub-agents.',
      ),
    session_name: label.describe('Session the turn belongs to (redacted label).'),
    stored_message_count: count.describe('Messages stored in the session before this turn.'),
    unknown_effect_calls: count
      .optional()
      .describe(
        'Tool calls a killed cw left started with no saved result, answered "effects unknown" (docs/agent-loop.md, "After a crash"); absent when there are none.',
      ),
    requested_route: label.describe('The route the user selected, or `auto` under auto model routing.'),
    requested_model: label.describe(
      'The model the user selected; `route-default` when none; `auto` under auto routing.',
    ),
    routing_mode: z
      .enum(['fixed-route', 'auto'])
      .describe('Whether a fixed route is selected or auto model routing decides per prompt.'),
    requested_reasoning: z
      .enum([...REASONING_SELECTIONS, 'route-default'])
      .describe('The reasoning tier the user selected (`auto` picks one from the prompt), or `route-default`.'),
    hypothetical_prompt_supplied: z
      .boolean()
      .describe('Whether the caller supplied --prompt (stays true when planning failed).'),
    mode: z.literal('agent').describe('Always `agent`: cw has one mode today.'),
    approval_mode: z
      .enum(APPROVAL_POSTURES)
      .describe(
        'The approval posture the agent loop runs tool calls under (config approval): never, read-only, workspace or ask.',
      ),
    sandbox: z
      .enum(['bubblewrap', 'sandbox-exec', 'unavailable', 'off'])
      .describe(
        'What confines the commands the model runs and submit hooks (docs/security.md): bubblewrap or sandbox-exec when found on this machine (looked up, never started), unavailable when none was found (or the machine was not looked at), off when sandbox.mode is off.',
      ),
    sandbox_mode: z
      .enum(SANDBOX_MODES)
      .describe(
        'Config sandbox.mode: off, on (sandbox when available, else ask per command) or required (refuse without one).',
      ),
    sandbox_network: z
      .enum(['off', 'on', 'allowlist'])
      .describe(
        "What sandboxed commands may reach (config sandbox.network): nothing, the host's network, or only the allowlist's hosts through cw's proxy (never listed here).",
      ),
    environment: z
      .strictObject({
        passed: count.describe("Variables of cw's environment commands receive: the allowlist and sandbox.env.pass."),
        set: count.describe('Variables sandbox.env.set gives commands.'),
        dropped_credentials: count.describe(
          'Variables kept from commands because their name or value looks like a credential, or a route reads its key from them.',
        ),
        dropped_other: count.describe("Every other variable of cw's environment: neither allowlisted nor passed."),
      })
      .nullable()
      .describe(
        "How cw's environment splits for the commands it starts for the model: shell commands, submit hooks and MCP stdio servers (docs/security.md). Counts only, never a name or a value; null when the environment was not looked at.",
      ),
    allowed_tool_gate_count: count
      .nullable()
      .describe('Entries in the config allow-list gate (tools.allow), or null when there is none.'),
    disallowed_tool_gate_count: count
      .nullable()
      .describe('Entries in the config deny-list gate (tools.deny), or null when there is none.'),
    message_submit_hook_count: count.describe(
      'Hooks in config hooks.message_submit: cw send runs them on a new prompt, preview never does (docs/hooks.md).',
    ),
    pending_skill: label
      .nullable()
      .describe(
        'The skill `cw skills use` set to wrap the next prompt (docs/skills.md), or null; preview never clears it.',
      ),
    goal_state: z
      .enum(['none', 'within-budget', 'budget-exhausted', 'not-snapshottable'])
      .describe(
        "The session goal's token-budget gate (docs/goal.md): none, within-budget, budget-exhausted, or not-snapshottable when its file cannot be read or is locked.",
      ),
    base_prompt: basePromptSchema.describe(
      'Provenance of the base prompt: origin, byte count and hash, never the text.',
    ),
  });

  const billingSchema = z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('metered') }),
      z.strictObject({ kind: z.literal('subscription'), plan: label }),
      z.strictObject({ kind: z.literal('local') }),
      z.strictObject({ kind: z.literal('unknown') }),
    ])
    .describe('Billing basis of the route; `unknown` means cost reporting fails closed.');

  /** Route facts, read off the prepared request. */
  const routeFactsSchema = z.strictObject({
    provider_id: label.describe('Canonical provider id of the route.'),
    provider_display: label.describe('Display name of the provider (redacted phrase).'),
    route_id: label.describe(
      'Route id (redacted: a user-authored id that looks like a path or secret becomes a fingerprint).',
    ),
    route_defined_by: z
      .enum(['plugin-row', 'user-config'])
      .describe('Whether the route came from a plugin capability row or from config.json.'),
    registered_by: label.describe('npm package of the plugin that registered or resolved the route.'),
    routing_source: z
      .literal('active-fixed-route')
      .describe('How the route was chosen; auto routing never reaches an exact route in a preview.'),
    dialect: labelSchema.describe(
      'Wire dialect of the body, as the dialect plugin declares it (e.g. `chat-completions`).',
    ),
    route_shape: labelSchema.describe('Which builder branch shaped the body (e.g. `standard`, `custom-compatible`).'),
    endpoint_host_class: label.describe(
      'Bounded endpoint class: `http loopback` or `https remote sha256:<12 hex>`; never a host name or path.',
    ),
    endpoint_fingerprint: sha256.describe('SHA-256 of the full POST URL, for "same endpoint?" comparisons only.'),
    wire_model: label.describe('The model id that goes on the wire (redacted unless it is in the route catalog).'),
    model_facts_source: z
      .enum(['route-row', 'model-id', 'model-pattern'])
      .describe(
        "Where the model's facts came from: the route row alone, or a model override matched by exact id or by pattern.",
      ),
    caller_entrypoint: z.enum(['streaming', 'blocking']).describe('Which transport entry point was described.'),
    body_stream_field: z
      .boolean()
      .nullable()
      .describe("The body's own `stream` value, read off the finished JSON; null when absent."),
    context_limit_tokens: tokens.describe('Context window of the route.'),
    context_limit_source: z.enum(CONTEXT_SOURCES).describe('Where the context window figure came from.'),
    route_input_limit_tokens: tokens.nullable().describe('Input limit of the route, or null when unknown.'),
    route_output_limit_tokens: tokens.nullable().describe('Output limit of the route, or null when unknown.'),
    billing: billingSchema,
    request_headers: z
      .strictObject({
        names: z
          .array(label)
          .describe(
            'Names of the headers cw sets, lower-case, in order, the credential header included (never its value); content-length and host are not listed.',
          ),
        user_agent: label.describe(
          'The User-Agent value exactly as sent: cw, its version, the platform and Node version; nothing that names the machine or its user (docs/transport.md).',
        ),
      })
      .describe('The request headers: names only, and the User-Agent value.'),
  });

  const toolOutcomeSchema = z.strictObject({
    name: label.describe('Tool name (redacted label).'),
    tool_origin: z
      .enum(['plugin', 'mcp'])
      .describe('Where the tool comes from: a plugin (the built-in tools included) or an MCP server.'),
    outcome: z.enum(['relaxed', 'omitted']).describe('What projection did to the tool on this route.'),
    codes: z.array(label).describe('Rule or reason codes; never schema values.'),
  });

  /** Tool-surface facts: the catalog this request would send. */
  const toolFactsSchema = z.strictObject({
    catalog_tool_count: count.describe('Tools in the full catalog, deferred ones included.'),
    deferred_tool_count: count.describe(
      'Catalog tools marked deferred, plus those a catalog too large for the route kept back behind search_tools (discoverable, not sent up front).',
    ),
    gated_out_tool_count: count.describe('Catalog tools removed by the config allow/deny gates.'),
    active_tool_count: count.describe('Tools serialized into this request, after narrowing and projection.'),
    search_tools_sent: z
      .literal(true)
      .optional()
      .describe(
        "Present when the catalog was too large for the route and cw's search_tools went out with it; it counts in active_tool_count but is no catalog tool.",
      ),
    active_tool_catalog_sha256: sha256.describe(
      'Logical catalog identity before dialect shaping: name, description, canonical schema, in order.',
    ),
    tool_surface_budget: z.enum(['standard', 'full']).describe('The surface budget in effect (config tools.surface).'),
    standard_and_full_surfaces_collapsed: z
      .boolean()
      .describe(
        'Derived by narrowing the catalog under both budgets and comparing: true when they give the same tools.',
      ),
    projection: z
      .strictObject({
        exact_count: count.describe('Tools sent as authored.'),
        relaxed_count: count.describe("Tools rewritten to the route's schema subset without changing meaning."),
        omitted_count: count.describe('Tools this route cannot be sent safely.'),
        changed: z.array(toolOutcomeSchema).max(8).describe('At most eight non-exact tools, in catalog order.'),
        more_changed_count: count.describe('Non-exact tools beyond the eight listed.'),
      })
      .describe('Per-route projection outcomes.'),
    mcp_server_count: count.describe('MCP servers in the snapshot (0 when MCP is off).'),
    mcp_tool_count: count.describe('Active tools contributed by MCP servers.'),
  });

  const estimatesSchema = z
    .strictObject({
      basis: z
        .literal('offline-estimate')
        .describe('Always `offline-estimate`: ceil(bytes / 4) per class, never a provider count.'),
      system: tokens,
      tool_schemas: tokens,
      messages: tokens,
      tool_results: tokens.describe('Subset of messages, for attribution; never added again.'),
      attachments: tokens.describe('Subset of messages, for attribution; never added again.'),
      framing: tokens,
      total_conservative: tokens.describe('ceil(body bytes / 4) plus a 5% margin, from the whole body.'),
    })
    .describe('Offline token estimates per byte class.');

  const inputCostSchema = availability(
    z.strictObject({
      basis: z
        .literal('offline-estimate-at-input-price')
        .describe(
          'Always `offline-estimate-at-input-price`: the conservative token estimate at the uncached input price.',
        ),
      estimated_input_tokens: tokens.describe('The tokens priced: `estimates.total_conservative`.'),
      usd_per_mtok: z.number().nonnegative().describe("The model's uncached input price, USD per million tokens."),
      usd: z
        .number()
        .nonnegative()
        .describe(
          'estimated_input_tokens × usd_per_mtok / 10^6, computed in integers and rounded half up to the micro-dollar.',
        ),
      price_source: label.describe(
        "The provider's pricing page the price was read from, as a fingerprint (`sha256:` and 12 hex digits of its address; docs/capability-rows.md lists the addresses).",
      ),
      price_as_of: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .describe('The day the price was read.'),
    }),
    INPUT_COST_REASONS,
    'input cost estimate',
  ).describe(
    "What the request's input would cost at the route's published price for its model; cache discounts are not assumed.",
  );

  const tokenizerCountsSchema = availability(
    z.strictObject({
      basis: z
        .literal('offline-tokenizer-count')
        .describe('Always `offline-tokenizer-count`: a local BPE count, never provider-authoritative.'),
      encoding: z.enum(OFFLINE_TOKENIZERS).describe("The BPE encoding the route's capability row names."),
      whole_body: tokens.describe('Tokens in the canonical JSON text of the whole body.'),
      system: tokens,
      tool_schemas: tokens,
      messages: tokens,
      tool_results: tokens,
      attachments: tokens,
    }),
    TOKENIZER_REASONS,
    'offline tokenizer count',
  ).describe(
    'Token counts of the canonical JSON text per class with an offline tokenizer, where one ships for the route.',
  );

  /** Body facts: the finished wire body, by counts, hashes and enums only. */
  const bodyFactsSchema = z.strictObject({
    reasoning_resolution: z
      .enum(['explicit', 'resolved-from-prompt', 'route-default', 'not-applicable'])
      .describe(
        'Whether the reasoning control came from the user, from `auto` resolved against the prompt, from the route default, or the body asks for none.',
      ),
    reasoning_wire_control_keys: z
      .array(label)
      .describe(
        'Reasoning-control keys present on the body (the dotted path of a control nested in a settings object); keys only.',
      ),
    reasoning_wire_effort: label.nullable().describe('The effort value found on the wire, or null.'),
    reasoning_wire_effort_source: label
      .nullable()
      .describe("Key path the effort was read from (a constant or the row's declared path)."),
    reasoning_wire_budget_tokens: tokens.nullable().describe('A thinking token budget found on the wire, or null.'),
    reasoning_wire_budget_source: label.nullable().describe('Key path the budget was read from.'),
    tool_choice: label.nullable().describe('Shape label of tool_choice read from the finished body; null when absent.'),
    system_prompt: z
      .strictObject({
        assembly: z.enum(['base-only', 'base-with-configured-layers', 'none']),
        layers: z
          .array(
            z.strictObject({
              layer_kind: z
                .enum(['base', 'home-instructions', 'workspace-instructions'])
                .describe('The bundled base, or AGENTS.md in the cw home or in a workspace folder.'),
              folder_depth: count.describe(
                'Folders below the workspace root an AGENTS.md sits in; 0 for the other kinds.',
              ),
              layer_bytes: count.describe(
                'UTF-8 bytes the layer adds to the system text, wrapper included (raw text).',
              ),
              layer_sha256: sha256.describe('SHA-256 of those bytes.'),
              truncated: z.boolean().describe('Whether the file was longer than its bound and was cut.'),
            }),
          )
          .describe(
            'The layers of the system text in the order they are joined (docs/project-context.md): sizes and hashes, never the text.',
          ),
        effective_system_canonical_json_bytes: count,
        effective_system_sha256: z
          .string()
          .regex(/^([0-9a-f]{64})?$/)
          .describe('Hash of the wire system region; empty when there is none.'),
      })
      .describe('How the system prompt was assembled and what its wire region measures.'),
    turn_context: z
      .strictObject({
        status: z
          .enum(TURN_CONTEXT_STATUSES)
          .describe(
            '`sent` when the block leads the new user message; `unchanged` when the last block the session stored says the same, so it is not repeated; `continuation` without a new user message; `side-request`; `off` when config turned it off or no working folder was read (docs/project-context.md).',
          ),
        context_bytes: count
          .nullable()
          .describe("UTF-8 bytes of this folder and day's block, the blank line after it included; null when off."),
        context_sha256: sha256.nullable().describe('SHA-256 of those bytes; null when off.'),
      })
      .describe(
        'The turn-context block: outside the system prompt, in front of the new user message, and stored with it so later requests replay the same bytes.',
      ),
    message_count: count.describe('Turn items, excluding Chat system-role items.'),
    attachment_count: count.describe('Attachment parts (images, files) across the items.'),
    prompt_files: z
      .strictObject({
        text_file_count: count.describe("Text files the prompt's @mentions put inline in the user message."),
        attached_image_count: count.describe('Images the mentions attached as image parts.'),
        stripped_image_count: count.describe(
          'Images left out because the route takes no images (capability row image_input); a note stands in their place.',
        ),
      })
      .describe(
        "What the new prompt's file mentions became on this route (docs/file-mentions.md); zeros without a prompt.",
      ),
    body_canonical_json_bytes: count.describe('Canonical JSON (RFC 8785) size of the whole body.'),
    system_canonical_json_bytes: count,
    tool_schema_canonical_json_bytes: count,
    message_canonical_json_bytes: count,
    tool_result_canonical_json_bytes: count.describe('Subset of message bytes.'),
    attachment_canonical_json_bytes: count.describe('Subset of message bytes.'),
    framing_canonical_json_bytes: count.describe('The remainder: body - system - tool schemas - messages.'),
    estimates: estimatesSchema,
    offline_tokenizer_counts: tokenizerCountsSchema,
    input_cost_estimate: inputCostSchema,
    input_budget_ceiling_tokens: tokens.describe(
      'Window minus output reservation minus safety headroom, capped by a route input limit.',
    ),
    output_reservation_tokens: tokens.describe(
      "Output tokens reserved out of the window: exactly the output cap the body carries, or the route row's declared reservation when it sends none (0 when it declares none).",
    ),
    estimated_input_headroom_tokens: z
      .number()
      .int()
      .describe('Ceiling minus total_conservative; negative means the turn would overflow.'),
    wire_output_cap_tokens: tokens
      .nullable()
      .describe('The output cap literally on the wire, or null when the body carries none.'),
    wire_output_cap_field: bodyKeyPathSchema
      .nullable()
      .describe('The body path the output cap sits at (the route row names it), or null when none is sent.'),
    provider_reported_usage: availability(
      z.strictObject({ input_tokens: tokens, output_tokens: tokens }),
      USAGE_REASONS,
      'provider-reported usage',
    ),
    body_sha256: sha256.describe('SHA-256 of the canonical JSON of the complete body.'),
    body_wire_sha256: sha256.describe('SHA-256 of the exact bytes cw send puts on the wire.'),
    body_wire_bytes: count.describe('Size of the exact wire bytes.'),
    tool_schema_wire_sha256: sha256
      .nullable()
      .describe('SHA-256 of the canonical `tools` value as the provider receives it; null without tools.'),
    local_system_tools_component_sha256: sha256.describe(
      'Local fingerprint of the wire system and tools digests; not a provider cache key.',
    ),
    prompt_cache: z
      .strictObject({
        breakpoint_count: count.describe('Prompt-cache breakpoints the body carries.'),
        breakpoint_regions: z
          .array(z.enum(['tools', 'system', 'messages']))
          .describe('The region each breakpoint sits in, in body order; never the text it follows.'),
        cache_key_field: bodyKeyPathSchema
          .nullable()
          .describe('Body path of the session-derived cache key, or null when the body carries none.'),
      })
      .describe('Prompt caching as the route row declares it and the body carries it.'),
    outbound_redaction: z
      .strictObject({
        enabled: z.boolean().describe('False when config `redact_outbound` is false.'),
        user_text_replacements: count.describe('Secrets replaced in user messages.'),
        tool_result_replacements: count.describe('Secrets replaced in tool results.'),
        system_prompt_replacements: count.describe('Secrets replaced in the system prompt (its AGENTS.md layers).'),
      })
      .describe('Secret-shaped text replaced with a marker before the body was built; counts only.'),
  });

  /** The preview manifest: what the next turn would send, without sending it. */
  const requestManifestSchema = z
    .strictObject({
      schema_version: z
        .literal(MANIFEST_SCHEMA_VERSION)
        .describe('Manifest format version; bumped only on a rename or removal.'),
      session: sessionFactsSchema.describe('Session facts; always exact.'),
      route: availability(routeFactsSchema, sectionReasons('route'), 'route'),
      tools: availability(toolFactsSchema, sectionReasons('tools'), 'tool surface'),
      body: availability(bodyFactsSchema, sectionReasons('body'), 'wire body'),
    })
    .meta({
      title: 'cw request manifest',
      description:
        'What the next cw turn would send, described without sending it. Produced by `cw preview-request json`.',
    });

  return requestManifestSchema;
}

/** The manifest's zod schema type. */
export type ManifestSchema = ReturnType<typeof buildManifestSchema>;

const built = new WeakMap<ReasonTable, ManifestSchema>();

/** The manifest's zod schema over a registry's reason table (built once per table, on first call). */
export function requestManifestSchema(reasons: ReasonTable): ManifestSchema {
  let schema = built.get(reasons);
  if (schema === undefined) {
    schema = buildManifestSchema(reasons);
    built.set(reasons, schema);
  }
  return schema;
}

type ExactOf<Section> = Extract<Section, { exact: unknown }>['exact'];

/** The preview manifest. */
export type RequestManifest = z.output<ManifestSchema>;
/** Session facts. */
export type SessionFacts = RequestManifest['session'];
/** Route facts. */
export type RouteFacts = ExactOf<RequestManifest['route']>;
/** Tool-surface facts. */
export type ToolFacts = ExactOf<RequestManifest['tools']>;
/** Body facts. */
export type BodyFacts = ExactOf<RequestManifest['body']>;
/** A section of the manifest. */
export type ManifestSection = 'route' | 'tools' | 'body';
/** Offline tokenizer counts of an exact body. */
export type TokenizerCounts = BodyFacts['offline_tokenizer_counts'];
