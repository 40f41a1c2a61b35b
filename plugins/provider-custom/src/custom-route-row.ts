import type { CapabilityRowInput, CustomRouteConfig } from '@cw/core/plugin';

// Defaults for an endpoint we know nothing about: conservative, and labelled as fallbacks.
const FALLBACK_WINDOW = 128_000;
const FALLBACK_OUTPUT = 8_192;

const PER_DIALECT: Record<
  string,
  Pick<CapabilityRowInput, 'output_cap' | 'tool_schema' | 'prompt_cache'> & { path: (base: string) => string }
> = {
  'chat-completions': {
    path: () => '/chat/completions',
    output_cap: { field: 'max_tokens', default_tokens: FALLBACK_OUTPUT },
    tool_schema: { dialect: 'loose', root_must_be_object: true },
  },
  'anthropic-messages': {
    // Users write the base URL either with or without the API version: a base already ending in /v1
    // gets /messages, anything else /v1/messages, so both spellings reach the same endpoint.
    path: (base) => (/\/v1\/?$/.test(base) ? '/messages' : '/v1/messages'),
    output_cap: { field: 'max_tokens', default_tokens: FALLBACK_OUTPUT },
    tool_schema: { dialect: 'draft-2020-object', root_must_be_object: true },
    // As on every Messages route: the last tool is a cache breakpoint.
    prompt_cache: { breakpoints: ['tools'] },
  },
  'openai-responses': {
    path: () => '/responses',
    output_cap: { field: 'max_output_tokens', default_tokens: FALLBACK_OUTPUT },
    tool_schema: { dialect: 'object-root', root_must_be_object: true },
  },
};

/** Turns one `routes.<id>` entry of config.json into a capability row. */
export function customRouteRow(routeId: string, route: CustomRouteConfig): CapabilityRowInput {
  const dialect = Object.hasOwn(PER_DIALECT, route.dialect) ? PER_DIALECT[route.dialect] : undefined;
  if (!dialect) {
    throw new Error(`custom routes speak ${Object.keys(PER_DIALECT).join(', ')}; set dialect to one of them`);
  }
  const outputTokens = route.max_output_tokens ?? FALLBACK_OUTPUT;
  return {
    provider_id: 'custom',
    provider_display: 'Custom endpoint',
    route_id: routeId,
    dialect: route.dialect,
    route_shape: 'custom-compatible',
    endpoint: { base_url: route.base_url, path: dialect.path(route.base_url) },
    auth: {
      scheme:
        route.api_key_env === undefined ? 'none' : route.dialect === 'anthropic-messages' ? 'x-api-key' : 'bearer',
      api_key_env: route.api_key_env ?? null,
      headers: route.dialect === 'anthropic-messages' ? { 'anthropic-version': '2023-06-01' } : {},
    },
    model: { default: route.model, wire_map: {}, catalog: [] },
    context: {
      window_tokens: route.context_window ?? FALLBACK_WINDOW,
      source: route.context_window === undefined ? 'fallback' : 'configured',
      input_limit_tokens: null,
      output_limit_tokens: route.max_output_tokens ?? null,
    },
    output_cap: { field: dialect.output_cap.field, default_tokens: outputTokens },
    billing: { kind: 'unknown' },
    tool_schema: dialect.tool_schema,
    prompt_cache: dialect.prompt_cache ?? null,
    tool_choice: { accepted: ['auto', 'none', 'required', 'named'], fallback: {} },
    // cw cannot know where an arbitrary endpoint takes a reasoning control, so it sends none.
    reasoning: null,
    provenance: { source: 'user config.json routes entry' },
  };
}
