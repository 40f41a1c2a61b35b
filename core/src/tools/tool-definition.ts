import type { JsonValue } from '../canonical/canonical-json.js';

/** A JSON Schema object as authored; projection never mutates one in place. */
export type JsonSchema = { readonly [key: string]: JsonValue };

/** A tool in the canonical, provider-neutral catalog. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonSchema;
  /** Where the tool comes from: the plugin that registered it, or a named MCP server. */
  readonly origin:
    | { readonly kind: 'plugin'; readonly plugin: string }
    | { readonly kind: 'mcp'; readonly server: string };
  /** Deferred tools are discoverable through tool search but not sent up front. */
  readonly deferred: boolean;
}
