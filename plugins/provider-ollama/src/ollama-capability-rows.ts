import type { CapabilityRowInput } from '@cw/core/plugin';

/** The wire dialect of the native route; `@cw/dialect-ollama-chat` registers it. */
export const OLLAMA_DIALECT = 'ollama-chat';

/**
 * Ollama has no tool choice on its native wire: `auto` is all it does. `none` is kept by sending no
 * tools; a forced choice cannot be kept, so it becomes `auto` and the request's warning says so.
 */
export const OLLAMA_TOOL_CHOICE: CapabilityRowInput['tool_choice'] = {
  accepted: ['auto'],
  fallback: { none: 'drop-tools', required: 'auto', named: 'auto' },
};

/**
 * Ollama's tool parameters are decoded into fixed types that drop what they do not know (`$ref`,
 * `format`, bounds) without an error: nothing is refused, so nothing is rewritten.
 */
export const OLLAMA_TOOL_SCHEMA: CapabilityRowInput['tool_schema'] = { dialect: 'loose' };

/**
 * Ollama's own API on the local server: NDJSON streaming, `think` as an on/off toggle (most models
 * take only that; omitted, a thinking model thinks), the cap in `options.num_predict`. The window
 * is a fallback that fits most local machines; the dialect sends it as `options.num_ctx`, so the
 * server keeps as much as cw plans for.
 */
export const OLLAMA_NATIVE_ROW: CapabilityRowInput = {
  provider_id: 'ollama',
  provider_display: 'Ollama',
  route_id: 'ollama-native',
  dialect: OLLAMA_DIALECT,
  route_shape: 'standard',
  endpoint: { base_url: 'http://localhost:11434', path: '/api/chat' },
  auth: { scheme: 'none', api_key_env: null },
  model: { default: 'qwen3', catalog: ['qwen3'] },
  context: { window_tokens: 32_768, source: 'fallback' },
  output_cap: { field: 'options.num_predict', default_tokens: 4_096 },
  billing: { kind: 'local' },
  tool_schema: OLLAMA_TOOL_SCHEMA,
  tool_choice: OLLAMA_TOOL_CHOICE,
  reasoning: {
    key_path: 'think',
    value_kind: 'toggle',
    values: { off: false, minimal: true, low: true, medium: true, high: true, xhigh: true, max: true },
    default_tier: null,
    replay: 'tool-loop',
  },
  provenance: { source: 'Ollama API docs: /api/chat, streaming, thinking, tool calling, 2026-08' },
};

/** Every route this plugin registers. */
export const OLLAMA_ROWS: readonly CapabilityRowInput[] = [OLLAMA_NATIVE_ROW];
