import type { CapabilityRowInput } from '@cw/core/plugin';

/**
 * One route, described as data. Rename the ids, point the endpoint at your provider, and fill in
 * the facts from its documentation; docs/capability-rows.md in the cw repository explains each field.
 */
export const EXAMPLE_ROW: CapabilityRowInput = {
  provider_id: 'example',
  provider_display: 'Example provider',
  route_id: 'example-chat',
  dialect: 'chat-completions',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.example.com/v1', path: '/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'EXAMPLE_API_KEY', headers: {} },
  model: { default: 'example-model', wire_map: {}, catalog: ['example-model'] },
  context: { window_tokens: 128_000, source: 'catalog', input_limit_tokens: null, output_limit_tokens: null },
  output_cap: { field: 'max_tokens', default_tokens: 8_192 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'loose', root_must_be_object: true },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'], fallback: {} },
  reasoning: null,
  provenance: { source: 'Example provider API reference (replace with the page you took these facts from)' },
};
