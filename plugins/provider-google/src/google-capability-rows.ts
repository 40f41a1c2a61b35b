import type { CapabilityRowInput } from '@cw/core/plugin';
import { GEMINI_JSON_SCHEMA } from './gemini-json-schema.js';

/** The wire dialect of every Google route; `@cw/dialect-gemini-generate-content` registers it. */
export const GEMINI_DIALECT = 'gemini-generate-content';

/**
 * The model goes in the URL, and a stream is asked for by method and query, not by a body field
 * (the discovery document's `models.generateContent` / `models.streamGenerateContent`; without
 * `alt=sse` the stream is not server-sent events).
 */
export const GEMINI_ENDPOINT_PATHS = {
  path: '/models/{model}:generateContent',
  streaming_path: '/models/{model}:streamGenerateContent?alt=sse',
} as const;

/** The key travels as it is in Google's own header, never in the URL, where it would end up in logs. */
export const GEMINI_KEY_HEADER = 'x-goog-api-key';

/**
 * Google's Gemini API, native wire. Thinking levels (Gemini 3 and later; earlier models refuse
 * `thinkingLevel`): `off` is the lowest level, since these models cannot stop thinking; thought
 * summaries are asked for whenever a level is sent. Thought signatures go back within a tool loop,
 * which is the only place the API checks them.
 */
export const GEMINI_ROW: CapabilityRowInput = {
  provider_id: 'google',
  provider_display: 'Google Gemini API',
  route_id: 'gemini',
  dialect: GEMINI_DIALECT,
  route_shape: 'standard',
  endpoint: { base_url: 'https://generativelanguage.googleapis.com/v1beta', ...GEMINI_ENDPOINT_PATHS },
  auth: { scheme: 'header', key_header: GEMINI_KEY_HEADER, api_key_env: 'GEMINI_API_KEY' },
  model: { default: 'gemini-flash-latest', catalog: ['gemini-flash-latest', 'gemini-3.1-pro-preview'] },
  context: { window_tokens: 1_048_576, source: 'catalog', output_limit_tokens: 65_536 },
  output_cap: { field: 'generationConfig.maxOutputTokens', default_tokens: 16_384 },
  billing: { kind: 'metered' },
  tool_schema: GEMINI_JSON_SCHEMA,
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
  reasoning: {
    key_path: 'generationConfig.thinkingConfig.thinkingLevel',
    value_kind: 'effort',
    values: {
      off: 'MINIMAL',
      minimal: 'MINIMAL',
      low: 'LOW',
      medium: 'MEDIUM',
      high: 'HIGH',
      xhigh: 'HIGH',
      max: 'HIGH',
    },
    also_set: { all: { 'generationConfig.thinkingConfig.includeThoughts': true } },
    default_tier: null,
    replay: 'tool-loop',
  },
  provenance: { source: 'Gemini API reference and discovery document v1beta (rev 20260831), thinking guide, 2026-08' },
};

/** Every route this plugin registers. */
export const GOOGLE_ROWS: readonly CapabilityRowInput[] = [GEMINI_ROW];
