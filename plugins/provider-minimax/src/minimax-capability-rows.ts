import type { CapabilityRowInput } from '@cw/core/plugin';

/** MiniMax-M3 thinks adaptively or not at all; there is no effort value. */
const M3_THINKING: CapabilityRowInput['reasoning'] = {
  key_path: 'thinking.type',
  value_kind: 'toggle',
  values: {
    off: 'disabled',
    minimal: 'adaptive',
    low: 'adaptive',
    medium: 'adaptive',
    high: 'adaptive',
    xhigh: 'adaptive',
    max: 'adaptive',
  },
  default_tier: null,
  forbids_forced_tool_choice: true,
};

/**
 * MiniMax's Anthropic-compatible route. Only M3 takes a thinking control; earlier models (M2) think
 * on their own and get none, as does a model cw does not know.
 */
export const MINIMAX_ANTHROPIC_ROW: CapabilityRowInput = {
  provider_id: 'minimax',
  provider_display: 'MiniMax',
  route_id: 'minimax-anthropic',
  dialect: 'anthropic-messages',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.minimax.io/anthropic', path: '/v1/messages' },
  auth: { scheme: 'x-api-key', api_key_env: 'MINIMAX_API_KEY', headers: { 'anthropic-version': '2023-06-01' } },
  model: { default: 'MiniMax-M3', catalog: ['MiniMax-M3', 'MiniMax-M2'] },
  context: { window_tokens: 200_000, source: 'fallback' },
  output_cap: { field: 'max_tokens', default_tokens: 32_000 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'draft-2020-object' },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
  reasoning: null,
  prompt_cache: { breakpoints: ['tools'] },
  models: [{ match: { ids: ['MiniMax-M3'] }, reasoning: M3_THINKING }],
  provenance: { source: 'MiniMax docs: Anthropic API compatibility, M3 thinking, 2026-08' },
};

/** Every route this plugin registers. */
export const MINIMAX_ROWS: readonly CapabilityRowInput[] = [MINIMAX_ANTHROPIC_ROW];
