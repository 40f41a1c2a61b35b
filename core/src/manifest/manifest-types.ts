import type { Dialect, RouteShape } from '../route/capability-row.js';
import type { Availability } from './unavailable-reason.js';
import type { TokenEstimates } from './token-estimates.js';

/** Bumped whenever a field is renamed or removed, so scripts can refuse a manifest they do not understand. */
export const MANIFEST_SCHEMA_VERSION = 1;

/** Facts about the session and the user's selections; always exact. */
export interface SessionFacts {
  readonly agent_role: 'primary';
  readonly session: string;
  readonly stored_message_count: number;
  readonly requested_route: string;
  readonly requested_model: string;
  readonly auto_model_routing: boolean;
  readonly requested_reasoning: string;
  readonly hypothetical_prompt_supplied: boolean;
  readonly caller_entrypoint: 'streaming' | 'blocking';
  readonly base_prompt: { readonly origin: string; readonly bytes: number; readonly sha256: string };
}

/** Billing basis of a route. */
export type BillingFacts = { readonly kind: 'metered' } | { readonly kind: 'subscription'; readonly plan: string } | { readonly kind: 'local' } | { readonly kind: 'unknown' };

/** The resolved route, read off the prepared request. */
export interface RouteFacts {
  readonly provider_id: string;
  readonly provider_display: string;
  readonly route_id: string;
  readonly route_defined_by: 'plugin-row' | 'user-config';
  readonly registered_by: string;
  readonly routing_source: 'active-fixed-route';
  readonly dialect: Dialect;
  readonly route_shape: RouteShape;
  readonly endpoint_host_class: string;
  readonly endpoint_fingerprint: string;
  readonly wire_model: string;
  readonly caller_entrypoint: 'streaming' | 'blocking';
  readonly body_stream_field: boolean | null;
  readonly context_limit_tokens: number;
  readonly context_limit_source: string;
  readonly route_input_limit_tokens: number | null;
  readonly route_output_limit_tokens: number | null;
  readonly billing: BillingFacts;
}

/** One tool's projection outcome, as far as it may be shown: a safe name and codes only. */
export interface ToolOutcomeFacts {
  readonly name: string;
  readonly outcome: 'relaxed' | 'omitted';
  readonly codes: readonly string[];
}

/** The tool surface this request would send. */
export interface ToolFacts {
  readonly catalog_tool_count: number;
  readonly deferred_tool_count: number;
  readonly active_tool_count: number;
  readonly active_tool_catalog_sha256: string;
  readonly projection: {
    readonly exact: number;
    readonly relaxed: number;
    readonly omitted: number;
    /** At most eight non-exact tools, in catalog order; the rest are counted in `more`. */
    readonly changed: readonly ToolOutcomeFacts[];
    readonly more: number;
  };
  readonly mcp_server_count: number;
  readonly mcp_tool_count: number;
}

/** The finished wire body, described by counts, hashes and enums only. */
export interface BodyFacts {
  readonly reasoning_resolution: 'explicit' | 'route-default' | 'not-applicable';
  readonly reasoning_wire_control_keys: readonly string[];
  readonly reasoning_wire_effort: string | null;
  readonly reasoning_wire_effort_source: string | null;
  readonly reasoning_wire_budget_tokens: number | null;
  readonly tool_choice: string | null;
  readonly prompt: {
    readonly assembly: 'base-only' | 'base-with-configured-layers' | 'base-with-runtime-additions' | 'none';
    readonly effective_system_canonical_json_bytes: number;
    readonly effective_system_sha256: string;
  };
  readonly message_count: number;
  readonly attachment_count: number;
  readonly canonical_json_bytes: {
    readonly body: number;
    readonly system: number;
    readonly tool_schemas: number;
    readonly messages: number;
    readonly tool_results: number;
    readonly attachments: number;
    readonly framing: number;
  };
  readonly estimates: TokenEstimates;
  readonly input_budget_ceiling_tokens: number;
  readonly estimated_input_headroom_tokens: number;
  readonly wire_output_cap_tokens: number | null;
  readonly wire_output_cap_field: string | null;
  readonly provider_reported_usage: Availability<never>;
  readonly body_sha256: string;
  readonly body_wire_sha256: string;
  readonly body_wire_bytes: number;
  readonly tool_schema_wire_sha256: string | null;
  readonly local_system_tools_component_sha256: string;
}

/** The preview manifest: what the next turn would send, without sending it. */
export interface RequestManifest {
  readonly schema_version: typeof MANIFEST_SCHEMA_VERSION;
  readonly session: SessionFacts;
  readonly route: Availability<RouteFacts>;
  readonly tools: Availability<ToolFacts>;
  readonly body: Availability<BodyFacts>;
}
