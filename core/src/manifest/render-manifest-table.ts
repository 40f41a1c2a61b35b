import type { RequestManifest } from './manifest-types.js';
import { REASON_LABELS, type Availability } from './unavailable-reason.js';

const LABEL_WIDTH = 30;

/** Options for the human table. */
export interface TableOptions {
  readonly color: boolean;
}

/** Renders the manifest as an aligned table that fits 80 columns. Values are already redacted. */
export function renderManifestTable(manifest: RequestManifest, options: TableOptions): string {
  const bold = (text: string): string => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const lines: string[] = [bold('Request manifest (preview only: nothing was sent)'), ''];
  const row = (label: string, value: unknown): void => {
    lines.push(`  ${label.padEnd(LABEL_WIDTH)} ${formatValue(value)}`);
  };
  const section = <T extends object>(title: string, availability: Availability<T>, rows: (facts: T) => void): void => {
    lines.push(bold(title));
    if ('unavailable' in availability) {
      row('unavailable', REASON_LABELS[availability.unavailable.reason]);
      if (availability.unavailable.detail !== null) row('detail', availability.unavailable.detail);
    } else {
      rows(availability.exact);
    }
    lines.push('');
  };
  const session = manifest.session;
  lines.push(bold('Session'));
  row('session', session.session);
  row('requested route', session.requested_route);
  row('requested model', session.requested_model);
  row('requested reasoning', session.requested_reasoning);
  row('prompt supplied', session.hypothetical_prompt_supplied);
  row('entry point', session.caller_entrypoint);
  row('base prompt', `${session.base_prompt.origin}, ${session.base_prompt.bytes} bytes`);
  lines.push('');
  section('Route', manifest.route, (route) => {
    row('provider', `${route.provider_id} (${route.provider_display})`);
    row('route', route.route_id);
    row('dialect / shape', `${route.dialect} / ${route.route_shape}`);
    row('endpoint', route.endpoint_host_class);
    row('wire model', route.wire_model);
    row('body stream field', route.body_stream_field === null ? 'not present on the body' : route.body_stream_field);
    row('context window', `${route.context_limit_tokens} tokens (${route.context_limit_source})`);
    row('billing', route.billing.kind);
  });
  section('Tools (what this request would send)', manifest.tools, (tools) => {
    row('active tools', `${tools.active_tool_count} of ${tools.catalog_tool_count} in the catalog`);
    row('projection', `${tools.projection.exact} exact, ${tools.projection.relaxed} relaxed, ${tools.projection.omitted} omitted`);
  });
  section('Wire body', manifest.body, (body) => {
    row('reasoning', body.reasoning_resolution);
    row('wire effort', body.reasoning_wire_effort === null ? 'not sent' : `${body.reasoning_wire_effort} (from ${body.reasoning_wire_effort_source})`);
    row('tool_choice', body.tool_choice ?? 'not sent');
    row('body bytes (canonical)', body.canonical_json_bytes.body);
    row('estimated tokens', `~${body.estimates.total_conservative} (offline estimate)`);
    row('input headroom', `~${body.estimated_input_headroom_tokens} of ${body.input_budget_ceiling_tokens}`);
    row('output cap', body.wire_output_cap_tokens ?? 'unknown');
    row('body sha256', body.body_sha256);
  });
  lines.push('Token figures are offline estimates (~4 bytes/token + 5% margin), not provider counts.');
  return `${lines.join('\n')}\n`;
}

function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
