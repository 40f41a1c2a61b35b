import type { CapabilityRowInput } from '@cw/core/plugin';
import { ANTHROPIC_PRICES } from './anthropic-prices.js';

const ADAPTIVE = { 'thinking.type': 'adaptive' } as const;

/**
 * Anthropic's Messages route: adaptive thinking with `output_config.effort` (xhigh and max both
 * send `max`). Off sends nothing: some models refuse an explicit `disabled`. Forced tool use is
 * refused while thinking. Haiku 4.5 takes neither adaptive thinking nor an effort: it gets no control.
 * Prompt caching: a breakpoint after the tools, on the system prompt and on the two latest user turns.
 */
export const ANTHROPIC_ROW: CapabilityRowInput = {
  provider_id: 'anthropic',
  provider_display: 'Anthropic',
  route_id: 'anthropic',
  dialect: 'anthropic-messages',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.anthropic.com', path: '/v1/messages' },
  auth: { scheme: 'x-api-key', api_key_env: 'ANTHROPIC_API_KEY', headers: { 'anthropic-version': '2023-06-01' } },
  model: {
    default: 'claude-sonnet-4-6',
    catalog: ['claude-sonnet-4-6', 'claude-opus-4-8', 'claude-sonnet-5', 'claude-haiku-4-5'],
  },
  context: { window_tokens: 200_000, source: 'catalog', output_limit_tokens: 64_000 },
  output_cap: { field: 'max_tokens', default_tokens: 32_000 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'draft-2020-object' },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
  reasoning: {
    key_path: 'output_config.effort',
    value_kind: 'effort',
    values: { off: null, minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'max', max: 'max' },
    also_set: { on: ADAPTIVE },
    default_tier: 'high',
    forbids_forced_tool_choice: true,
    // Thinking with tool use: the thinking blocks of the assistant turn that called the tools go back,
    // unmodified, with their results; those of earlier turns the API drops from the context itself.
    replay: 'tool-loop',
  },
  image_input: true,
  prompt_cache: { breakpoints: ['tools', 'system', 'conversation-tail'], tail_turns: 2, max_breakpoints: 4 },
  models: [{ match: { ids: ['claude-haiku-4-5'] }, reasoning: null }],
  prices: [...ANTHROPIC_PRICES],
  provenance: { source: 'Anthropic docs: Messages API, adaptive thinking, effort, prompt caching, 2026-07' },
};

/** Every route this plugin registers. */
export const ANTHROPIC_ROWS: readonly CapabilityRowInput[] = [ANTHROPIC_ROW];
