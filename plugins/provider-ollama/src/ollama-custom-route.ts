import type { CapabilityRowInput, CustomRouteConfig } from '@cw/core/plugin';
import { OLLAMA_DIALECT, OLLAMA_TOOL_CHOICE, OLLAMA_TOOL_SCHEMA } from './ollama-capability-rows.js';

// A server cw knows nothing about: figures that fit most machines, labelled as fallbacks. The window
// is sent as the server's context size, so it is kept modest rather than large.
const FALLBACK_WINDOW = 32_768;
const FALLBACK_OUTPUT = 4_096;

/**
 * The row for a `routes.<id>` entry of config.json that names the Ollama dialect (a server on
 * another machine, or ollama.com with a key): `/api/chat` on the user's base URL, written with or
 * without its `/api`, a bearer key when the entry names one, and no reasoning control.
 */
export function ollamaCustomRow(routeId: string, route: CustomRouteConfig): CapabilityRowInput {
  return {
    provider_id: 'custom',
    provider_display: 'Custom endpoint',
    route_id: routeId,
    dialect: OLLAMA_DIALECT,
    route_shape: 'custom-compatible',
    endpoint: { base_url: route.base_url, path: /\/api\/?$/.test(route.base_url) ? '/chat' : '/api/chat' },
    auth:
      route.api_key_env === undefined
        ? { scheme: 'none', api_key_env: null }
        : { scheme: 'bearer', api_key_env: route.api_key_env },
    model: { default: route.model },
    context: {
      window_tokens: route.context_window ?? FALLBACK_WINDOW,
      source: route.context_window === undefined ? 'fallback' : 'configured',
      output_limit_tokens: route.max_output_tokens ?? null,
    },
    output_cap: { field: 'options.num_predict', default_tokens: route.max_output_tokens ?? FALLBACK_OUTPUT },
    billing: { kind: 'unknown' },
    tool_schema: OLLAMA_TOOL_SCHEMA,
    tool_choice: OLLAMA_TOOL_CHOICE,
    reasoning: null,
    provenance: { source: 'user config.json routes entry' },
  };
}
