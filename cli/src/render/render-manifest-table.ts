import { builtinReasonTable, type ManifestReason, type RequestManifest, terminalSafe } from '@cw/core';
import { usdText } from './cost-text.js';
import { wrapWords } from './wrap-text.js';

// The manifest's sections as the table reads them: each one's exact form.
type ExactOf<Section> = Extract<Section, { exact: unknown }>['exact'];
type SessionFacts = RequestManifest['session'];
type RouteFacts = ExactOf<RequestManifest['route']>;
type ToolFacts = ExactOf<RequestManifest['tools']>;
type BodyFacts = ExactOf<RequestManifest['body']>;

/** Options for the human table. */
export interface TableOptions {
  /** ANSI styling; the caller decides (a TTY, and NO_COLOR unset). */
  readonly color: boolean;
  /**
   * Fingerprints of values the user wrote in config, mapped to the values as written (userFactLabels).
   * The table shows those as written; the JSON manifest keeps its fingerprints (docs/security.md).
   */
  readonly userFacts?: ReadonlyMap<string, string>;
  /** The words for each reason, as the features and plugins registered them; the built-in ones by default. */
  readonly reasons?: { label(reason: string): string };
}

/** Shows a fingerprint the user's own fact stands behind as the fact; any other text as it is. */
type OwnFacts = (text: string) => string;

function ownFacts(labels: ReadonlyMap<string, string> | undefined): OwnFacts {
  if (labels === undefined || labels.size === 0) return (text) => text;
  // The values were checked showable when the map was made; terminalSafe is a second guard.
  return (text) => text.replace(/sha256:[0-9a-f]{12}/g, (word) => terminalSafe(labels.get(word) ?? word));
}

/** Every line of the table fits this many columns. */
export const TABLE_WIDTH = 80;
const INDENT = 2;
const LABEL_WIDTH = 30;
// Hash rows use a short label so that a 64-hex digest still fits on one 80-column line.
const HASH_LABEL_WIDTH = 13;
// A word too long for the value column (a digest) gets its own line at this indent.
const LONG_WORD_INDENT = 4;

type Style = 'bold' | 'dim' | 'warn';
const STYLES: Readonly<Record<Style, readonly [string, string]>> = {
  bold: ['\u001b[1m', '\u001b[22m'],
  dim: ['\u001b[2m', '\u001b[22m'],
  warn: ['\u001b[33m', '\u001b[39m'],
};

/** Accumulates table lines; styling is applied after layout so padding never counts escape codes. */
interface TableWriter {
  heading(text: string): void;
  subheading(text: string): void;
  row(label: string, value: string | number | boolean | null, style?: Style): void;
  hash(label: string, hex: string | null, whenNull: string): void;
  note(text: string): void;
  blank(): void;
  text(): string;
}

function tableWriter(options: TableOptions): TableWriter {
  const lines: string[] = [];
  const headings = new Set<string>();
  const isHeading = (line: string): boolean => headings.has(line);
  const paint = (text: string, style: Style | undefined): string => {
    if (!options.color || style === undefined || text === '') return text;
    const [open, close] = STYLES[style];
    return `${open}${text}${close}`;
  };
  // The label goes on the first line; continuation lines align under the value; an over-long word
  // (a digest) sits alone at a small indent, after the label line.
  const emit = (prefix: string, value: string, style: Style | undefined): void => {
    let labelShown = false;
    for (const line of wrapWords(value, TABLE_WIDTH - prefix.length, TABLE_WIDTH - LONG_WORD_INDENT)) {
      if (line.long) {
        if (!labelShown) lines.push(prefix.trimEnd());
        lines.push(`${' '.repeat(LONG_WORD_INDENT)}${paint(line.text, style)}`);
      } else {
        lines.push(`${labelShown ? ' '.repeat(prefix.length) : prefix}${paint(line.text, style)}`);
      }
      labelShown = true;
    }
  };
  return {
    heading: (text) => {
      const line = paint(clip(text, TABLE_WIDTH), 'bold');
      headings.add(line);
      lines.push(line);
    },
    subheading: (text) => {
      // A sub-block inside a section is set off by a blank line, unless it opens the section.
      if (lines.length > 0 && lines[lines.length - 1] !== '' && !isHeading(lines[lines.length - 1] ?? ''))
        lines.push('');
      lines.push(paint(clip(`${' '.repeat(INDENT)}${text}`, TABLE_WIDTH), 'bold'));
    },
    row: (label, value, style) =>
      emit(`${' '.repeat(INDENT)}${clip(label, LABEL_WIDTH).padEnd(LABEL_WIDTH)} `, formatValue(value), style),
    hash: (label, hex, whenNull) => {
      const prefix = `${' '.repeat(INDENT)}${label.padEnd(HASH_LABEL_WIDTH)} `;
      if (hex === null || hex === '') emit(prefix, hex === null ? whenNull : 'none', 'dim');
      else emit(prefix, terminalSafe(hex), undefined);
    },
    note: (text) => {
      for (const line of wrapWords(terminalSafe(text), TABLE_WIDTH, TABLE_WIDTH)) lines.push(paint(line.text, 'dim'));
    },
    blank: () => lines.push(''),
    text: () => `${lines.join('\n')}\n`,
  };
}

/** Renders the manifest as aligned sections that fit 80 columns. Values are already redacted. */
export function renderManifestTable(manifest: RequestManifest, options: TableOptions): string {
  const table = tableWriter(options);
  table.heading('Request manifest (preview only: nothing was sent)');
  table.note(
    'Typed counts, hashes and provenance for the next primary agent turn. No prompt, message or system prompt text.',
  );
  table.blank();
  const own = ownFacts(options.userFacts);
  renderSession(table, manifest.session, own);
  const reasons = options.reasons ?? builtinReasonTable();
  section(table, reasons, 'Route', manifest.route, (route) => renderRoute(table, route, own));
  section(table, reasons, 'Tools (the exact catalog this request would send)', manifest.tools, (tools) =>
    renderTools(table, tools),
  );
  section(table, reasons, 'Wire body', manifest.body, (body) =>
    renderBody(table, body, 'exact' in manifest.route ? manifest.route.exact : null),
  );
  for (const hint of hints(manifest)) {
    table.note(hint);
    table.blank();
  }
  table.note(
    'Token figures are offline estimates (~4 bytes/token + 5% margin) or offline tokenizer counts, never provider counts.',
  );
  table.note('Scope: the primary agent turn cw send would send; nothing else.');
  return table.text();
}

function section<Facts>(
  table: TableWriter,
  reasons: { label(reason: string): string },
  title: string,
  availability: { exact: Facts } | { unavailable: { reason: ManifestReason; detail: string | null } },
  render: (facts: Facts) => void,
): void {
  table.heading(title);
  if ('unavailable' in availability) {
    const { reason, detail } = availability.unavailable;
    table.row('unavailable', reasons.label(reason), 'warn');
    table.row('reason code', reason);
    if (detail !== null) table.row('detail', detail);
  } else {
    render(availability.exact);
  }
  table.blank();
}

function renderSession(table: TableWriter, session: SessionFacts, own: OwnFacts): void {
  table.heading('Session');
  table.row('session', `${session.session_name} (${plural(session.stored_message_count, 'stored message')})`);
  if (session.unknown_effect_calls !== undefined)
    table.row(
      'interrupted calls',
      `${plural(session.unknown_effect_calls, 'call')} started before cw stopped; effects unknown, the model is told to check`,
    );
  table.row(
    'agent',
    `${session.agent_role} agent, ${session.lane_kind === 'cli-single-turn' ? 'one turn per cw command' : session.lane_kind}`,
  );
  table.row('requested route', own(session.requested_route));
  table.row(
    'requested model',
    session.requested_model === 'route-default' ? 'route default' : own(session.requested_model),
  );
  table.row('routing', session.routing_mode === 'auto' ? 'auto model routing' : 'fixed route');
  table.row(
    'requested reasoning',
    session.requested_reasoning === 'route-default' ? 'route default' : session.requested_reasoning,
  );
  table.row('hypothetical prompt', session.hypothetical_prompt_supplied ? 'supplied' : 'not supplied');
  table.row('mode', session.mode);
  table.row('approval', session.approval_mode);
  table.row('sandbox', `${session.sandbox} (mode ${session.sandbox_mode}), network ${session.sandbox_network}`);
  table.row('tool allow gate', gate(session.allowed_tool_gate_count));
  table.row('tool deny gate', gate(session.disallowed_tool_gate_count));
  if (session.message_submit_hook_count > 0)
    table.row('message hooks', `${number(session.message_submit_hook_count)} (cw send runs them; preview does not)`);
  if (session.pending_skill !== null) table.row('pending skill', `${session.pending_skill} (wraps the next prompt)`);
  if (session.goal_state !== 'none') table.row('goal', session.goal_state);
  table.row('base prompt', `${session.base_prompt.origin}, ${number(session.base_prompt.bytes)} bytes`);
  table.hash('base sha256', session.base_prompt.sha256, 'none');
  table.blank();
}

function renderRoute(table: TableWriter, route: RouteFacts, own: OwnFacts): void {
  table.row('provider', `${route.provider_id} (${route.provider_display})`);
  table.row('route', own(route.route_id));
  table.row(
    'defined by',
    `${route.route_defined_by === 'plugin-row' ? 'plugin row' : 'config.json'}, ${route.registered_by}`,
  );
  table.row('routing source', 'active fixed route');
  table.row('dialect / shape', `${route.dialect} / ${route.route_shape}`);
  table.row('endpoint', own(route.endpoint_host_class));
  table.row('wire model', own(route.wire_model));
  table.row('model facts', MODEL_FACTS_LABELS[route.model_facts_source]);
  table.row('entry point', route.caller_entrypoint);
  table.row(
    'body stream field',
    route.body_stream_field === null ? 'not present on the body' : route.body_stream_field,
  );
  table.row('context window', `${number(route.context_limit_tokens)} tokens (${route.context_limit_source})`);
  table.row(
    'route input limit',
    route.route_input_limit_tokens === null ? 'unknown' : `${number(route.route_input_limit_tokens)} tokens`,
  );
  table.row(
    'route output limit',
    route.route_output_limit_tokens === null ? 'unknown' : `${number(route.route_output_limit_tokens)} tokens`,
  );
  table.row('billing', billingLabel(route.billing));
  table.row('user agent', route.request_headers.user_agent);
  table.hash('endpoint sha', route.endpoint_fingerprint, 'none');
}

function renderTools(table: TableWriter, tools: ToolFacts): void {
  // search_tools is sent but is no catalog tool: counted apart, so sent + deferred + gated out add up.
  const searchTools = tools.search_tools_sent === true ? 1 : 0;
  table.row(
    'active tools',
    `${tools.active_tool_count - searchTools} of ${plural(tools.catalog_tool_count, 'catalog tool')}${searchTools ? ', and search_tools' : ''}`,
  );
  table.row(
    'deferred / gated out',
    `${tools.deferred_tool_count} deferred, ${tools.gated_out_tool_count} removed by gates`,
  );
  table.row('surface budget', tools.tool_surface_budget);
  table.row(
    'standard vs full',
    tools.standard_and_full_surfaces_collapsed
      ? 'collapsed: both budgets give the same catalog'
      : 'distinct: the budgets give different catalogs',
  );
  const projection = tools.projection;
  table.row(
    'projection',
    `${projection.exact_count} exact, ${projection.relaxed_count} relaxed, ${projection.omitted_count} omitted`,
  );
  for (const changed of projection.changed)
    table.row(`  ${changed.outcome}`, `${changed.name} (${changed.codes.join(', ') || 'no code'})`);
  if (projection.more_changed_count > 0) table.row('  more', `${projection.more_changed_count} more changed tools`);
  table.row('MCP', `${plural(tools.mcp_server_count, 'server')}, ${plural(tools.mcp_tool_count, 'tool')}`);
  table.hash('catalog sha', tools.active_tool_catalog_sha256, 'none');
}

function renderBody(table: TableWriter, body: BodyFacts, route: RouteFacts | null): void {
  table.subheading('Reasoning (as prepared)');
  table.row('resolution', RESOLUTION_LABELS[body.reasoning_resolution]);
  table.row(
    'wire control keys',
    body.reasoning_wire_control_keys.length === 0 ? 'none' : body.reasoning_wire_control_keys.join(', '),
  );
  table.row(
    'wire effort',
    body.reasoning_wire_effort === null
      ? 'not sent'
      : `${body.reasoning_wire_effort} (from ${body.reasoning_wire_effort_source ?? '?'})`,
  );
  table.row(
    'thinking budget',
    body.reasoning_wire_budget_tokens === null
      ? 'not sent'
      : `${number(body.reasoning_wire_budget_tokens)} tokens (from ${body.reasoning_wire_budget_source ?? '?'})`,
  );
  table.row('tool_choice', body.tool_choice ?? 'not sent');
  const redaction = body.outbound_redaction;
  table.row(
    'secrets replaced',
    redaction.enabled
      ? `${number(redaction.user_text_replacements)} in user text, ${number(redaction.tool_result_replacements)} in tool results, ${number(redaction.system_prompt_replacements)} in the system prompt`
      : 'off (redact_outbound is false)',
  );
  const cache = body.prompt_cache;
  table.row(
    'prompt cache',
    `${plural(cache.breakpoint_count, 'breakpoint')}${cache.breakpoint_count === 0 ? '' : ` (${cache.breakpoint_regions.join(', ')})`}` +
      (cache.cache_key_field === null ? '' : `; session key at ${cache.cache_key_field}`),
  );

  table.subheading('System prompt (as prepared)');
  table.row('assembly', ASSEMBLY_LABELS[body.system_prompt.assembly]);
  // The base alone needs no list: its size and hash are in the session section.
  for (const layer of body.system_prompt.layers.length > 1 ? body.system_prompt.layers : []) {
    table.row(
      `  ${LAYER_LABELS[layer.layer_kind]}${layer.layer_kind === 'workspace-instructions' ? ` (depth ${layer.folder_depth})` : ''}`,
      `${number(layer.layer_bytes)} bytes${layer.truncated ? ', cut at its bound' : ''}`,
    );
  }
  table.row(
    'effective system',
    `${number(body.system_prompt.effective_system_canonical_json_bytes)} canonical JSON bytes`,
  );
  table.row('turn context', turnContextLabel(body.turn_context));

  const files = body.prompt_files;
  // Shown only when the prompt mentioned files, so a plain prompt's table stays as it was.
  if (files.text_file_count + files.attached_image_count + files.stripped_image_count > 0) {
    table.subheading('Mentioned files (docs/file-mentions.md)');
    table.row('text files inline', number(files.text_file_count));
    table.row('images attached', number(files.attached_image_count));
    table.row('images left out', `${number(files.stripped_image_count)} (the route takes no images)`);
  }

  table.subheading('Sizes (canonical JSON bytes, exact)');
  table.row('whole body', number(body.body_canonical_json_bytes));
  table.row('system', number(body.system_canonical_json_bytes));
  table.row('tool schemas', number(body.tool_schema_canonical_json_bytes));
  table.row(`messages (${plural(body.message_count, 'item')})`, number(body.message_canonical_json_bytes));
  table.row('  tool results (subset)', number(body.tool_result_canonical_json_bytes));
  table.row(`  attachments (subset, ${body.attachment_count})`, number(body.attachment_canonical_json_bytes));
  table.row('framing', `${number(body.framing_canonical_json_bytes)} (key names, punctuation, all other fields)`);
  table.row('accounting', 'system + tool schemas + messages + framing = whole body, exactly');
  table.row('wire bytes (as sent)', number(body.body_wire_bytes));

  table.subheading('Estimated tokens (offline estimate, not provider-counted)');
  const estimates = body.estimates;
  table.row('system', `~${number(estimates.system)}`);
  table.row('tool schemas', `~${number(estimates.tool_schemas)}`);
  table.row('messages', `~${number(estimates.messages)}`);
  table.row('  tool results (subset)', `~${number(estimates.tool_results)}`);
  table.row('  attachments (subset)', `~${number(estimates.attachments)}`);
  table.row('framing', `~${number(estimates.framing)}`);
  table.row('total (5% margin)', `~${number(estimates.total_conservative)}`);
  const inputCost = body.input_cost_estimate;
  if ('exact' in inputCost)
    table.row(
      'input cost',
      `~${usdText(inputCost.exact.usd)} at $${inputCost.exact.usd_per_mtok} per million input tokens (price of ${inputCost.exact.price_as_of}; estimate)`,
    );
  else table.row('input cost', builtinReasonTable().label(inputCost.unavailable.reason), 'dim');

  const counts = body.offline_tokenizer_counts;
  if ('exact' in counts) {
    table.subheading(`Offline tokenizer count (${counts.exact.encoding}, not provider-counted)`);
    table.row('whole body (JSON text)', number(counts.exact.whole_body));
    table.row('system', number(counts.exact.system));
    table.row('tool schemas', number(counts.exact.tool_schemas));
    table.row('messages', number(counts.exact.messages));
    table.row('  tool results (subset)', number(counts.exact.tool_results));
    table.row('  attachments (subset)', number(counts.exact.attachments));
  } else {
    table.subheading('Offline tokenizer count');
    table.row('unavailable', tokenizerLabel(counts.unavailable.reason), 'dim');
    if (counts.unavailable.detail !== null) table.row('detail', counts.unavailable.detail);
  }

  table.subheading('Input budget');
  if (route !== null) table.row('context window', `${number(route.context_limit_tokens)} tokens`);
  table.row('output reservation', `${number(body.output_reservation_tokens)} tokens`);
  table.row('input budget ceiling', `${number(body.input_budget_ceiling_tokens)} tokens`);
  table.row(
    'headroom',
    `~${number(body.estimated_input_headroom_tokens)} tokens (estimate; window minus output reservation and safety headroom)`,
    body.estimated_input_headroom_tokens < 0 ? 'warn' : undefined,
  );
  table.row(
    'wire output cap',
    body.wire_output_cap_tokens === null
      ? 'unknown'
      : `${number(body.wire_output_cap_tokens)} (${body.wire_output_cap_field ?? '?'})`,
  );
  table.row('provider-reported usage', 'unavailable: no request was sent');

  table.subheading('Hashes (SHA-256)');
  table.hash('whole body', body.body_sha256, 'none');
  table.hash('wire bytes', body.body_wire_sha256, 'none');
  table.hash('tool schemas', body.tool_schema_wire_sha256, 'no tools on this request');
  table.hash('system region', body.system_prompt.effective_system_sha256, 'none');
  table.hash('system+tools', body.local_system_tools_component_sha256, 'unavailable: tool surface not exactly known');
}

function hints(manifest: RequestManifest): string[] {
  if (!('unavailable' in manifest.route)) return [];
  switch (manifest.route.unavailable.reason) {
    case 'no-hypothetical-prompt-supplied':
      return [
        'Pass --prompt <text> to describe the exact request for that prompt: the next user message is part of the request.',
      ];
    case 'auto-route-unresolved-until-next-prompt':
    case 'auto-route-classification-not-executed':
      return [
        'Auto routing picks the route with a classifier that preview never runs. Select a fixed route to preview an exact request.',
      ];
    default:
      return [];
  }
}

const RESOLUTION_LABELS: Readonly<Record<BodyFacts['reasoning_resolution'], string>> = {
  explicit: 'explicit user selection',
  'resolved-from-prompt': 'auto, resolved against the prompt',
  'route-default': 'route default (no user selection)',
  'not-applicable': 'the body sends no reasoning control',
};

const MODEL_FACTS_LABELS: Readonly<Record<RouteFacts['model_facts_source'], string>> = {
  'route-row': 'the route row',
  'model-id': "the route row with this model's override (exact id)",
  'model-pattern': 'the route row with a model-family override (pattern)',
};

const ASSEMBLY_LABELS: Readonly<Record<BodyFacts['system_prompt']['assembly'], string>> = {
  'base-only': 'base prompt only',
  'base-with-configured-layers': 'base prompt + configured static layers',
  none: 'no system prompt',
};

const LAYER_LABELS: Readonly<Record<BodyFacts['system_prompt']['layers'][number]['layer_kind'], string>> = {
  base: 'base prompt',
  'home-instructions': 'AGENTS.md, cw home',
  'workspace-instructions': 'AGENTS.md',
};

// The block is never in the system prompt: it leads the new user message (docs/project-context.md).
function turnContextLabel(context: BodyFacts['turn_context']): string {
  const size = context.context_bytes === null ? '' : `, ${number(context.context_bytes)} bytes`;
  switch (context.status) {
    case 'sent':
      return `leads the new user message${size}`;
    case 'unchanged':
      return `not repeated: the session's last one is the same${size}`;
    case 'continuation':
      return 'not sent: no new user message';
    case 'side-request':
      return 'not sent: side request';
    case 'off':
      return 'off';
    default: {
      const unreachable: never = context.status;
      return unreachable;
    }
  }
}

function billingLabel(billing: RouteFacts['billing']): string {
  switch (billing.kind) {
    case 'metered':
      return 'metered API (per token)';
    case 'subscription':
      return `subscription quota (${billing.plan})`;
    case 'local':
      return 'local route (no provider bill)';
    case 'unknown':
      return 'unknown billing basis';
    default: {
      const unreachable: never = billing;
      return unreachable;
    }
  }
}

// The tokenizer's reasons are the core's own: the built-in table has them.
function tokenizerLabel(reason: ManifestReason): string {
  return builtinReasonTable().label(reason);
}

function gate(size: number | null): string {
  return size === null ? 'none' : plural(size, 'tool name');
}

function plural(value: number, noun: string): string {
  return `${number(value)} ${noun}${value === 1 ? '' : 's'}`;
}

function number(value: number): string {
  return value.toLocaleString('en-US');
}

function formatValue(value: string | number | boolean | null): string {
  if (value === null) return 'none';
  if (typeof value === 'number') return number(value);
  if (typeof value === 'boolean') return String(value);
  return terminalSafe(value);
}

function clip(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join('')}…`;
}
