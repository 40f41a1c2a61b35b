import type { CapabilityRowInput } from '@cw/core';

const DOCS = 'api-docs.deepseek.com (chat completions, thinking mode, tool calls), checked 2026-11';

/** DeepSeek's chat route: thinking on by default, effort low/high/max, tool_choice refused while thinking. */
export const DEEPSEEK_CHAT_ROW: CapabilityRowInput = {
  provider_id: 'deepseek',
  provider_display: 'DeepSeek',
  route_id: 'deepseek',
  dialect: 'chat-completions',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.deepseek.com/v1', path: '/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'DEEPSEEK_API_KEY', headers: {} },
  model: {
    default: 'deepseek-v4-pro',
    // Retired aliases still resolve, to the flash model, on first-party endpoints.
    wire_map: { 'deepseek-chat': 'deepseek-v4-flash', 'deepseek-reasoner': 'deepseek-v4-flash' },
    catalog: ['deepseek-v4-pro', 'deepseek-v4-flash'],
  },
  context: { window_tokens: 1_000_000, source: 'catalog', input_limit_tokens: null, output_limit_tokens: null },
  output_cap: { field: 'max_tokens', default_tokens: 65_536 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'openai-loose', root_must_be_object: true },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'], fallback: {} },
  reasoning: {
    key_path: 'reasoning_effort',
    value_kind: 'effort',
    values: { off: null, minimal: 'low', low: 'low', medium: 'high', high: 'high', xhigh: 'max', max: 'max' },
    also_set: {
      off: { 'thinking.type': 'disabled' },
      minimal: { 'thinking.type': 'enabled' },
      low: { 'thinking.type': 'enabled' },
      medium: { 'thinking.type': 'enabled' },
      high: { 'thinking.type': 'enabled' },
      xhigh: { 'thinking.type': 'enabled' },
      max: { 'thinking.type': 'enabled' },
    },
    default_tier: 'high',
    conflicting_params: [],
    // Thinking mode answers 400 to required/named tool_choice; auto is the default anyway.
    omits_tool_choice: true,
  },
  provenance: { source: DOCS },
};

/** Every route this plugin registers. */
export const DEEPSEEK_ROWS: readonly CapabilityRowInput[] = [DEEPSEEK_CHAT_ROW];
