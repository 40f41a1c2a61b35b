import type { CapabilityRowInput } from '@cw/core/plugin';

const ENABLED = { 'thinking.type': 'enabled' } as const;

/**
 * OpenModel's Anthropic-compatible gateway: no adaptive thinking, so a tier becomes a thinking
 * budget. The budget must stay below `max_tokens` and at 1,024 or more: see openmodel-build-body.
 */
export const OPENMODEL_ROW: CapabilityRowInput = {
  provider_id: 'openmodel',
  provider_display: 'OpenModel',
  route_id: 'openmodel',
  dialect: 'anthropic-messages',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.openmodel.ai', path: '/v1/messages' },
  auth: { scheme: 'x-api-key', api_key_env: 'OPENMODEL_API_KEY', headers: { 'anthropic-version': '2023-06-01' } },
  model: { default: 'deepseek-v4-flash', catalog: ['deepseek-v4-flash', 'deepseek-v4-pro'] },
  context: { window_tokens: 200_000, source: 'fallback' },
  output_cap: { field: 'max_tokens', default_tokens: 32_000 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'draft-2020-object' },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
  reasoning: {
    key_path: 'thinking.budget_tokens',
    value_kind: 'budget',
    values: { off: null, minimal: 4_096, low: 4_096, medium: 8_192, high: 16_384, xhigh: 32_768, max: 32_768 },
    also_set: { on: ENABLED },
    default_tier: 'high',
    forbids_forced_tool_choice: true,
  },
  prompt_cache: { breakpoints: ['tools'] },
  provenance: { source: 'OpenModel gateway docs, Anthropic extended thinking, 2026-08' },
};

/** Every route this plugin registers. */
export const OPENMODEL_ROWS: readonly CapabilityRowInput[] = [OPENMODEL_ROW];
