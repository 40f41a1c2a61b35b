import type { CapabilityRowInput } from '@cw/core/plugin';

const XAI_REASONING: CapabilityRowInput['reasoning'] = {
  key_path: 'reasoning_effort',
  value_kind: 'effort',
  values: { off: 'high', minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'xhigh', max: 'xhigh' },
  default_tier: null,
  conflicting_params: ['presence_penalty', 'frequency_penalty', 'stop'],
};

/**
 * xAI's chat route. Tool parameters need an object root (unions are flattened), and the structured
 * outputs engine refuses length and item-count bounds and `null` inside an enum; at most 200 tools.
 * Reasoning models refuse penalties and stop sequences, and thinking cannot be turned off.
 */
export const XAI_ROW: CapabilityRowInput = {
  provider_id: 'xai',
  provider_display: 'xAI',
  route_id: 'xai',
  dialect: 'chat-completions',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.x.ai/v1', path: '/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'XAI_API_KEY' },
  model: { default: 'grok-4.6', catalog: ['grok-4.6', 'grok-4.5'] },
  context: { window_tokens: 256_000, source: 'catalog' },
  output_cap: { field: 'max_tokens', default_tokens: 32_768 },
  billing: { kind: 'metered' },
  tool_schema: {
    dialect: 'object-root',
    deny_keywords: ['minLength', 'maxLength', 'minItems', 'maxItems', 'minContains', 'maxContains'],
    enum_allows_null: false,
    max_tools: 200,
  },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
  reasoning: XAI_REASONING,
  models: [
    {
      // grok-4.5's top effort is high: the tiers above it clamp there.
      match: { ids: ['grok-4.5'] },
      reasoning: { ...XAI_REASONING, values: { ...XAI_REASONING.values, xhigh: 'high', max: 'high' } },
    },
  ],
  provenance: { source: 'xAI docs: reasoning, structured outputs, function calling, 2026-06' },
};

/** Every route this plugin registers. */
export const XAI_ROWS: readonly CapabilityRowInput[] = [XAI_ROW];
