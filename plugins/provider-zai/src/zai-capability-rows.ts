import type { CapabilityRowInput, ModelOverrideInput } from '@cw/core/plugin';

const THINKING_ON = { 'thinking.type': 'enabled', 'thinking.clear_thinking': false } as const;
const THINKING_OFF = { 'thinking.type': 'disabled' } as const;

/** GLM-5.3 and GLM-5.2 are tiered: the thinking toggle, plus `reasoning_effort` for the high tiers only. */
const TIERED: ModelOverrideInput = {
  match: { ids: ['GLM-5.3', 'glm-5.3', 'GLM-5.2', 'glm-5.2'] },
  reasoning: {
    key_path: 'reasoning_effort',
    value_kind: 'effort',
    values: { off: null, minimal: null, low: null, medium: null, high: 'high', xhigh: 'max', max: 'max' },
    also_set: { off: THINKING_OFF, on: THINKING_ON },
    default_tier: null,
  },
};

/** GLM-5.1 and GLM-5-Turbo take the thinking toggle only: no effort at any tier. */
const TOGGLE_ONLY: ModelOverrideInput = {
  match: { ids: ['GLM-5.1', 'glm-5.1', 'GLM-5-Turbo', 'glm-5-turbo'] },
  reasoning: {
    key_path: 'thinking.type',
    value_kind: 'toggle',
    values: {
      off: 'disabled',
      minimal: 'enabled',
      low: 'enabled',
      medium: 'enabled',
      high: 'enabled',
      xhigh: 'enabled',
      max: 'enabled',
    },
    also_set: { on: THINKING_ON },
    default_tier: null,
  },
};

/**
 * Z.ai's coding-plan route. Thinking is a toggle that keeps earlier reasoning (`clear_thinking:
 * false`); the tiered GLM-5.3 and GLM-5.2 also take `reasoning_effort`, for the high tiers only. A
 * model cw does not know gets no reasoning control at all: which form it takes is unknown.
 */
export const ZAI_ROW: CapabilityRowInput = {
  provider_id: 'zai',
  provider_display: 'Z.ai',
  route_id: 'zai',
  dialect: 'chat-completions',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.z.ai/api/coding/paas/v4', path: '/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'ZAI_API_KEY' },
  model: { default: 'GLM-5.3', catalog: ['GLM-5.3', 'GLM-5.2', 'GLM-5.1', 'GLM-5-Turbo'] },
  context: { window_tokens: 200_000, source: 'catalog' },
  output_cap: { field: 'max_tokens', default_tokens: 32_768 },
  billing: { kind: 'subscription', plan: 'Z.ai Coding Plan quota' },
  tool_schema: { dialect: 'loose' },
  // Only `auto` is documented; `none` is kept by sending no tools.
  tool_choice: { accepted: ['auto'], fallback: { none: 'drop-tools', required: 'auto', named: 'auto' } },
  reasoning: null,
  models: [TIERED, TOGGLE_ONLY],
  provenance: { source: 'Z.ai docs: thinking mode, GLM-5.3 reasoning effort, 2026-08' },
};

/** Every route this plugin registers. */
export const ZAI_ROWS: readonly CapabilityRowInput[] = [ZAI_ROW];
