import type { CapabilityRowInput } from '@cw/core/plugin';

const SUMMARY = { 'reasoning.summary': 'auto' } as const;

/**
 * OpenAI Codex on the ChatGPT backend: Responses at `/codex/responses`, billed to the ChatGPT plan.
 * The backend answers 400 to `max_output_tokens`, so the row sends no cap; it declares 4,096 tokens
 * of the window kept free for the reply instead (docs/capability-rows.md). Effort is low, medium,
 * high or xhigh; reasoning cannot be turned off. Each session sends one `prompt_cache_key`.
 */
export const CODEX_ROW: CapabilityRowInput = {
  provider_id: 'openai-codex',
  provider_display: 'OpenAI Codex (ChatGPT)',
  route_id: 'codex',
  dialect: 'openai-responses',
  route_shape: 'codex-responses',
  endpoint: { base_url: 'https://chatgpt.com/backend-api', path: '/codex/responses' },
  auth: { scheme: 'bearer', api_key_env: 'CODEX_ACCESS_TOKEN' },
  model: { default: 'gpt-5.6', catalog: ['gpt-5.6', 'gpt-5.6-codex'] },
  context: { window_tokens: 128_000, source: 'fallback' },
  output_cap: { field: null, default_tokens: 4_096, reserve_tokens: 4_096 },
  billing: { kind: 'subscription', plan: 'Codex OAuth quota' },
  tool_schema: { dialect: 'object-root' },
  tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
  reasoning: {
    key_path: 'reasoning.effort',
    value_kind: 'effort',
    values: { off: 'low', minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'xhigh', max: 'xhigh' },
    also_set: { all: SUMMARY },
    default_tier: 'medium',
    // With store false, the reasoning items of a tool loop go back in `input`, encrypted_content
    // included, before the function_call items they led to.
    replay: 'tool-loop',
  },
  tokenizer: 'o200k_base',
  image_input: true,
  prompt_cache: { key_field: 'prompt_cache_key' },
  provenance: { source: 'OpenAI Codex client behaviour and Responses API reference, 2026-08' },
};

/** Every route this plugin registers. */
export const CODEX_ROWS: readonly CapabilityRowInput[] = [CODEX_ROW];
