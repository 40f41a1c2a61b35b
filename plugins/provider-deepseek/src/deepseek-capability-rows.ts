import type { CapabilityRowInput } from '@cw/core';

const DOCS = 'DeepSeek API docs: chat, thinking mode, tool calls, 2026-11';

// One reasoning control for both chat routes: thinking on by default, effort low/high/max.
const CHAT_REASONING: CapabilityRowInput['reasoning'] = {
  key_path: 'reasoning_effort',
  value_kind: 'effort',
  values: { off: null, minimal: 'low', low: 'low', medium: 'high', high: 'high', xhigh: 'max', max: 'max' },
  also_set: { off: { 'thinking.type': 'disabled' }, on: { 'thinking.type': 'enabled' } },
  default_tier: 'high',
  conflicting_params: [],
  // Thinking mode answers 400 to required/named tool_choice; auto is the default anyway.
  omits_tool_choice: true,
  forbids_forced_tool_choice: true,
  // Thinking mode docs: the reasoning_content of an assistant turn that called tools must be passed
  // back on every later request, after later user messages too (400 without it); that of a turn
  // without tool calls is ignored. Only sending all of it back keeps every request valid.
  replay: 'always',
};

const MODEL: CapabilityRowInput['model'] = {
  default: 'deepseek-v4-pro',
  // Retired aliases still resolve, to the flash model, on first-party endpoints.
  wire_map: { 'deepseek-chat': 'deepseek-v4-flash', 'deepseek-reasoner': 'deepseek-v4-flash' },
  catalog: ['deepseek-v4-pro', 'deepseek-v4-flash'],
};

/** DeepSeek's chat route: thinking on by default, effort low/high/max, tool_choice refused while thinking. */
export const DEEPSEEK_CHAT_ROW: CapabilityRowInput = {
  provider_id: 'deepseek',
  provider_display: 'DeepSeek',
  route_id: 'deepseek',
  dialect: 'chat-completions',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.deepseek.com/v1', path: '/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'DEEPSEEK_API_KEY', headers: {} },
  model: MODEL,
  context: { window_tokens: 1_000_000, source: 'catalog', input_limit_tokens: null, output_limit_tokens: null },
  output_cap: { field: 'max_tokens', default_tokens: 65_536 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'loose', root_must_be_object: true },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'], fallback: {} },
  reasoning: CHAT_REASONING,
  provenance: { source: DOCS },
};

/**
 * The beta base URL, where function tools may be strict: the server validates each schema against
 * a strict subset narrower than OpenAI's (no length or item-count bounds, five string formats).
 */
export const DEEPSEEK_BETA_ROW: CapabilityRowInput = {
  ...DEEPSEEK_CHAT_ROW,
  route_id: 'deepseek-beta',
  route_shape: 'deepseek-beta-strict-tools',
  endpoint: { base_url: 'https://api.deepseek.com/beta', path: '/chat/completions' },
  tool_schema: { dialect: 'strict-narrow' },
  provenance: { source: 'DeepSeek API docs: tool calls, strict mode (beta), 2026-11' },
};

/** DeepSeek's Anthropic-compatible endpoint: adaptive thinking with `output_config.effort`. */
export const DEEPSEEK_ANTHROPIC_ROW: CapabilityRowInput = {
  provider_id: 'deepseek',
  provider_display: 'DeepSeek',
  route_id: 'deepseek-anthropic',
  dialect: 'anthropic-messages',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.deepseek.com/anthropic', path: '/v1/messages' },
  auth: { scheme: 'x-api-key', api_key_env: 'DEEPSEEK_API_KEY', headers: { 'anthropic-version': '2023-06-01' } },
  model: { default: 'deepseek-v4-pro', catalog: ['deepseek-v4-pro', 'deepseek-v4-flash'] },
  context: { window_tokens: 1_000_000, source: 'catalog' },
  output_cap: { field: 'max_tokens', default_tokens: 65_536 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'draft-2020-object' },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
  reasoning: {
    key_path: 'output_config.effort',
    value_kind: 'effort',
    values: { off: null, minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'max', max: 'max' },
    also_set: { off: { 'thinking.type': 'disabled' }, on: { 'thinking.type': 'adaptive' } },
    default_tier: 'high',
    // Messages thinking refuses a forced tool (`any` / `tool`).
    forbids_forced_tool_choice: true,
  },
  provenance: { source: 'DeepSeek API docs: Anthropic API compatibility, 2026-11' },
};

/** Every route this plugin registers. */
export const DEEPSEEK_ROWS: readonly CapabilityRowInput[] = [
  DEEPSEEK_CHAT_ROW,
  DEEPSEEK_BETA_ROW,
  DEEPSEEK_ANTHROPIC_ROW,
];
