import type { CapabilityRowInput } from '@cw/core/plugin';

const THINKING_ON = { 'thinking.type': 'enabled' } as const;

/** OpenRouter's chat route: an aggregator, so the model ids carry the upstream vendor (`vendor/model`). */
export const OPENROUTER_ROW: CapabilityRowInput = {
  provider_id: 'openrouter',
  provider_display: 'OpenRouter',
  route_id: 'openrouter',
  dialect: 'chat-completions',
  route_shape: 'standard',
  endpoint: { base_url: 'https://openrouter.ai/api/v1', path: '/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'OPENROUTER_API_KEY' },
  model: { default: 'deepseek/deepseek-v4-pro', catalog: ['deepseek/deepseek-v4-pro', 'deepseek/deepseek-v4-flash'] },
  context: { window_tokens: 1_000_000, source: 'catalog' },
  output_cap: { field: 'max_tokens', default_tokens: 32_768 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'loose' },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
  reasoning: {
    key_path: 'reasoning_effort',
    value_kind: 'effort',
    values: { off: null, minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'xhigh', max: 'xhigh' },
    also_set: { off: { 'thinking.type': 'disabled' }, on: THINKING_ON },
    default_tier: null,
  },
  provenance: { source: 'OpenRouter docs: reasoning tokens, tool calling, 2026-08' },
};

/** Every route this plugin registers. */
export const OPENROUTER_ROWS: readonly CapabilityRowInput[] = [OPENROUTER_ROW];
