import type { CapabilityRowInput, ModelOverrideInput } from '@cw/core/plugin';
import { DEEPSEEK_PRICES } from './deepseek-prices.js';

const DOCS = 'DeepSeek API docs: chat, thinking mode, tool calls, 2026-11';

// One reasoning control for both chat routes: thinking on, effort low/high/max, max unless the user picks.
const CHAT_REASONING: CapabilityRowInput['reasoning'] = {
  key_path: 'reasoning_effort',
  value_kind: 'effort',
  values: { off: null, minimal: 'low', low: 'low', medium: 'high', high: 'high', xhigh: 'max', max: 'max' },
  also_set: { off: { 'thinking.type': 'disabled' }, on: { 'thinking.type': 'enabled' } },
  default_tier: 'max',
  conflicting_params: [],
  // Thinking mode answers 400 to required/named tool_choice; auto is the default anyway.
  omits_tool_choice: true,
  forbids_forced_tool_choice: true,
  // Thinking mode docs: the reasoning_content of an assistant turn that called tools must be passed
  // back on every later request, after later user messages too (400 without it); that of a turn
  // without tool calls is ignored. Only sending all of it back keeps every request valid.
  replay: 'always',
};

// Retired aliases still resolve, to the flash model, on first-party endpoints.
const RETIRED_ALIASES = { 'deepseek-chat': 'deepseek-v4-flash', 'deepseek-reasoner': 'deepseek-v4-flash' };

const MODEL: CapabilityRowInput['model'] = {
  default: 'deepseek-v4-pro',
  wire_map: RETIRED_ALIASES,
  catalog: ['deepseek-v4-pro', 'deepseek-v4-flash'],
};

/**
 * On DeepSeek's own API the flash model is served over Responses, at the unversioned base: its
 * reasoning is `reasoning: {effort}` alone (`none` turns thinking off), with no summary, no
 * `include` and no `store`. The retired aliases map to it, so they take these facts too.
 */
const FLASH_OVER_RESPONSES: ModelOverrideInput = {
  match: { ids: ['deepseek-v4-flash'] },
  dialect: 'openai-responses',
  endpoint_path: '/responses',
  output_cap: { field: 'max_output_tokens' },
  reasoning: {
    key_path: 'reasoning.effort',
    value_kind: 'effort',
    values: { off: 'none', minimal: 'low', low: 'low', medium: 'high', high: 'high', xhigh: 'max', max: 'max' },
    default_tier: 'max',
    omits_tool_choice: true,
    forbids_forced_tool_choice: true,
  },
  omit_body_keys: ['store'],
  provenance: { source: 'DeepSeek API docs: Responses format, thinking mode, 2026-11' },
};

/**
 * DeepSeek's first-party route, model-aware: `deepseek-v4-pro` over Chat Completions (thinking on,
 * effort low/high/max, tool_choice refused while thinking), `deepseek-v4-flash` over Responses.
 */
export const DEEPSEEK_CHAT_ROW: CapabilityRowInput = {
  provider_id: 'deepseek',
  provider_display: 'DeepSeek',
  route_id: 'deepseek',
  dialect: 'chat-completions',
  route_shape: 'standard',
  // The unversioned base: chat lives under /v1, Responses at the root.
  endpoint: { base_url: 'https://api.deepseek.com', path: '/v1/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'DEEPSEEK_API_KEY', headers: {} },
  model: MODEL,
  context: { window_tokens: 1_000_000, source: 'catalog', input_limit_tokens: null, output_limit_tokens: null },
  output_cap: { field: 'max_tokens', default_tokens: 65_536 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'loose', root_must_be_object: true },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'], fallback: {} },
  reasoning: CHAT_REASONING,
  models: [FLASH_OVER_RESPONSES],
  prices: [...DEEPSEEK_PRICES],
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
  // Strict tools are a chat feature: every model goes over Chat Completions here.
  models: [],
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
  model: { default: 'deepseek-v4-pro', wire_map: RETIRED_ALIASES, catalog: ['deepseek-v4-pro', 'deepseek-v4-flash'] },
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
    default_tier: 'max',
    // Messages thinking refuses a forced tool (`any` / `tool`).
    forbids_forced_tool_choice: true,
  },
  // The last tool is a cache breakpoint, as on every Messages route.
  prompt_cache: { breakpoints: ['tools'] },
  prices: [...DEEPSEEK_PRICES],
  provenance: { source: 'DeepSeek API docs: Anthropic API compatibility, 2026-11' },
};

/** Every route this plugin registers. */
export const DEEPSEEK_ROWS: readonly CapabilityRowInput[] = [
  DEEPSEEK_CHAT_ROW,
  DEEPSEEK_BETA_ROW,
  DEEPSEEK_ANTHROPIC_ROW,
];
