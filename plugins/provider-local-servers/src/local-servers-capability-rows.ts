import type { CapabilityRowInput } from '@cw/core/plugin';

// What the three servers share: loopback http, no key, nothing billed, an OpenAI-compatible chat path.
const LOCAL: Pick<CapabilityRowInput, 'dialect' | 'route_shape' | 'auth' | 'billing' | 'tool_schema' | 'tool_choice'> =
  {
    dialect: 'chat-completions',
    route_shape: 'standard',
    auth: { scheme: 'none', api_key_env: null },
    billing: { kind: 'local' },
    // Tool calls go through the server's tool parser and guided decoding: no strict mode.
    tool_schema: { dialect: 'loose' },
    tool_choice: { accepted: ['auto', 'none', 'required', 'named'] },
  };

/** vLLM's OpenAI-compatible server: thinking through the chat template, effort at the top level. */
export const VLLM_ROW: CapabilityRowInput = {
  ...LOCAL,
  provider_id: 'vllm',
  provider_display: 'vLLM',
  route_id: 'vllm',
  endpoint: { base_url: 'http://localhost:8000/v1', path: '/chat/completions' },
  model: { default: 'deepseek-ai/DeepSeek-V4-Pro', catalog: ['deepseek-ai/DeepSeek-V4-Pro'] },
  context: { window_tokens: 128_000, source: 'fallback' },
  output_cap: { field: 'max_tokens', default_tokens: 8_192 },
  reasoning: {
    key_path: 'reasoning_effort',
    value_kind: 'effort',
    values: { off: null, minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'high', max: 'high' },
    also_set: {
      off: { 'chat_template_kwargs.enable_thinking': false },
      on: { 'chat_template_kwargs.enable_thinking': true },
    },
    default_tier: null,
  },
  provenance: { source: 'vLLM docs: reasoning outputs, tool calling, 2026-08' },
};

/** Ollama's OpenAI-compatible server: thinking is a `think` toggle; a small default context. */
export const OLLAMA_ROW: CapabilityRowInput = {
  ...LOCAL,
  provider_id: 'ollama',
  provider_display: 'Ollama',
  route_id: 'ollama',
  endpoint: { base_url: 'http://localhost:11434/v1', path: '/chat/completions' },
  model: { default: 'deepseek-v4-flash', catalog: ['deepseek-v4-flash'] },
  context: { window_tokens: 8_192, source: 'fallback' },
  output_cap: { field: 'max_tokens', default_tokens: 2_048 },
  reasoning: {
    key_path: 'think',
    value_kind: 'toggle',
    values: { off: false, minimal: true, low: true, medium: true, high: true, xhigh: true, max: true },
    default_tier: null,
  },
  provenance: { source: 'Ollama docs: OpenAI compatibility, thinking, 2026-08' },
};

/** SGLang's OpenAI-compatible server: a thinking toggle plus effort, high or max. */
export const SGLANG_ROW: CapabilityRowInput = {
  ...LOCAL,
  provider_id: 'sglang',
  provider_display: 'SGLang',
  route_id: 'sglang',
  endpoint: { base_url: 'http://localhost:30000/v1', path: '/chat/completions' },
  model: { default: 'deepseek-ai/DeepSeek-V4-Pro', catalog: ['deepseek-ai/DeepSeek-V4-Pro'] },
  context: { window_tokens: 128_000, source: 'fallback' },
  output_cap: { field: 'max_tokens', default_tokens: 8_192 },
  reasoning: {
    key_path: 'reasoning_effort',
    value_kind: 'effort',
    values: { off: null, minimal: 'high', low: 'high', medium: 'high', high: 'high', xhigh: 'max', max: 'max' },
    also_set: { off: { 'thinking.type': 'disabled' }, on: { 'thinking.type': 'enabled' } },
    default_tier: null,
  },
  provenance: { source: 'SGLang docs: separate reasoning, tool parser, 2026-08' },
};

/** Every route this plugin registers. */
export const LOCAL_SERVER_ROWS: readonly CapabilityRowInput[] = [VLLM_ROW, OLLAMA_ROW, SGLANG_ROW];
