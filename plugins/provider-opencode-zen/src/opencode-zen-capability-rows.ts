import type { CapabilityRowInput, ModelOverrideInput } from '@cw/core/plugin';

const BASE_URL = 'https://opencode.ai/zen/v1';
const SUMMARY = { 'reasoning.summary': 'auto' } as const;

/** OpenCode Zen's chat route, for the models Zen serves on Chat Completions; no reasoning control is sent. */
export const OPENCODE_ZEN_CHAT_ROW: CapabilityRowInput = {
  provider_id: 'opencode-zen',
  provider_display: 'OpenCode Zen',
  route_id: 'opencode-zen-chat',
  dialect: 'chat-completions',
  route_shape: 'opencode-zen',
  endpoint: { base_url: BASE_URL, path: '/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'OPENCODE_API_KEY' },
  model: { default: 'deepseek-v4-pro', catalog: ['deepseek-v4-pro', 'glm-5.3', 'kimi-k2.7-code'] },
  context: { window_tokens: 128_000, source: 'fallback' },
  output_cap: { field: 'max_tokens', default_tokens: 32_768 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'loose' },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
  reasoning: null,
  provenance: { source: 'OpenCode Zen docs: models and endpoints, 2026-08' },
};

const GPT_REASONING: CapabilityRowInput['reasoning'] = {
  key_path: 'reasoning.effort',
  value_kind: 'effort',
  values: { off: 'none', minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'xhigh', max: 'max' },
  also_set: { on: SUMMARY },
  default_tier: 'medium',
};

/** OpenCode Zen's Responses route, for the GPT models; the public id maps to Zen's wire id. */
export const OPENCODE_ZEN_RESPONSES_ROW: CapabilityRowInput = {
  provider_id: 'opencode-zen',
  provider_display: 'OpenCode Zen',
  route_id: 'opencode-zen-responses',
  dialect: 'openai-responses',
  route_shape: 'opencode-zen',
  endpoint: { base_url: BASE_URL, path: '/responses' },
  auth: { scheme: 'bearer', api_key_env: 'OPENCODE_API_KEY' },
  model: { default: 'gpt-5.6', wire_map: { 'gpt-5.6': 'gpt-5.6-sol' }, catalog: ['gpt-5.6', 'gpt-5.6-sol'] },
  context: { window_tokens: 400_000, source: 'catalog' },
  output_cap: { field: 'max_output_tokens', default_tokens: 32_768 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'object-root' },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
  reasoning: GPT_REASONING,
  tokenizer: 'o200k_base',
  image_input: true,
  prompt_cache: { key_field: 'prompt_cache_key' },
  provenance: { source: 'OpenCode Zen docs: models and endpoints, 2026-08' },
};

/** Zen serves the GPT models over Responses, with their reasoning and a session cache key. */
const GPT_OVER_RESPONSES: ModelOverrideInput = {
  match: { pattern: 'gpt-[0-9][0-9a-z.-]*' },
  dialect: 'openai-responses',
  endpoint_path: '/responses',
  context: { window_tokens: 400_000, source: 'catalog' },
  output_cap: { field: 'max_output_tokens' },
  tool_schema: { dialect: 'object-root' },
  reasoning: GPT_REASONING,
  tokenizer: 'o200k_base',
  image_input: true,
  prompt_cache: { key_field: 'prompt_cache_key' },
};

/**
 * Zen serves the Claude models over Messages. Zen is a gateway, not Anthropic's own host, so no
 * thinking control is sent; the last tool is a cache breakpoint.
 */
const CLAUDE_OVER_MESSAGES: ModelOverrideInput = {
  match: { pattern: 'claude-[a-z0-9.-]+' },
  dialect: 'anthropic-messages',
  endpoint_path: '/messages',
  context: { window_tokens: 200_000, source: 'catalog' },
  output_cap: { field: 'max_tokens', default_tokens: 32_000 },
  tool_schema: { dialect: 'draft-2020-object' },
  image_input: true,
  prompt_cache: { breakpoints: ['tools'] },
};

/**
 * OpenCode Zen, model-aware: each model goes over the dialect Zen serves it on. GPT models over
 * Responses, Claude models over Messages, every other model (DeepSeek, GLM, Kimi, ...) over Chat
 * Completions with no reasoning control.
 */
export const OPENCODE_ZEN_ROW: CapabilityRowInput = {
  ...OPENCODE_ZEN_CHAT_ROW,
  route_id: 'opencode-zen',
  model: {
    default: 'gpt-5.6',
    wire_map: { 'gpt-5.6': 'gpt-5.6-sol' },
    catalog: [
      'gpt-5.6',
      'gpt-5.6-sol',
      'claude-sonnet-4-6',
      'claude-opus-4-8',
      'deepseek-v4-pro',
      'glm-5.3',
      'kimi-k2.7-code',
    ],
  },
  models: [GPT_OVER_RESPONSES, CLAUDE_OVER_MESSAGES],
};

/** Every route this plugin registers. */
export const OPENCODE_ZEN_ROWS: readonly CapabilityRowInput[] = [
  OPENCODE_ZEN_ROW,
  OPENCODE_ZEN_CHAT_ROW,
  OPENCODE_ZEN_RESPONSES_ROW,
];
