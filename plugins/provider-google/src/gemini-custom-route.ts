import type { CapabilityRowInput, CustomRouteConfig } from '@cw/core/plugin';
import { GEMINI_JSON_SCHEMA } from './gemini-json-schema.js';
import { GEMINI_DIALECT, GEMINI_ENDPOINT_PATHS, GEMINI_KEY_HEADER } from './google-capability-rows.js';

// An endpoint cw knows nothing about: conservative figures, labelled as fallbacks.
const FALLBACK_WINDOW = 128_000;
const FALLBACK_OUTPUT = 8_192;

/**
 * The row for a `routes.<id>` entry of config.json that names the Gemini dialect (a gateway or a
 * local server that speaks it): Gemini's paths and key header on the user's base URL, the Gemini
 * schema subset, and no reasoning control, since cw cannot know what such an endpoint takes.
 */
export function geminiCustomRow(routeId: string, route: CustomRouteConfig): CapabilityRowInput {
  return {
    provider_id: 'custom',
    provider_display: 'Custom endpoint',
    route_id: routeId,
    dialect: GEMINI_DIALECT,
    route_shape: 'custom-compatible',
    endpoint: { base_url: route.base_url, ...GEMINI_ENDPOINT_PATHS },
    auth:
      route.api_key_env === undefined
        ? { scheme: 'none', api_key_env: null }
        : { scheme: 'header', key_header: GEMINI_KEY_HEADER, api_key_env: route.api_key_env },
    model: { default: route.model },
    context: {
      window_tokens: route.context_window ?? FALLBACK_WINDOW,
      source: route.context_window === undefined ? 'fallback' : 'configured',
      output_limit_tokens: route.max_output_tokens ?? null,
    },
    output_cap: {
      field: 'generationConfig.maxOutputTokens',
      default_tokens: route.max_output_tokens ?? FALLBACK_OUTPUT,
    },
    billing: { kind: 'unknown' },
    tool_schema: GEMINI_JSON_SCHEMA,
    tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
    reasoning: null,
    provenance: { source: 'user config.json routes entry' },
  };
}
