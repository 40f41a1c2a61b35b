import type { CapabilityRowInput } from '@cw/core/plugin';

// Moonshot answers 400 to `required` and named tool_choice; auto is the closest it takes.
const TOOL_CHOICE: CapabilityRowInput['tool_choice'] = {
  accepted: ['auto', 'none'],
  fallback: { required: 'auto', named: 'auto' },
};

// One effort mapping for both K3 shapes: low, high or max; K3 cannot turn thinking off.
const K3_EFFORT = {
  off: 'low',
  minimal: 'low',
  low: 'low',
  medium: 'high',
  high: 'high',
  xhigh: 'max',
  max: 'max',
} as const;
const THINKING_ON = { 'thinking.type': 'enabled' } as const;

/** Moonshot's standard chat route: thinking as an on/off toggle, tool parameters in MFJS. */
export const MOONSHOT_ROW: CapabilityRowInput = {
  provider_id: 'moonshot',
  provider_display: 'Moonshot (Kimi)',
  route_id: 'moonshot',
  dialect: 'chat-completions',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.moonshot.ai/v1', path: '/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'MOONSHOT_API_KEY' },
  model: { default: 'kimi-k2.7-code', catalog: ['kimi-k2.7-code', 'kimi-k2.6', 'kimi-k2.5'] },
  context: { window_tokens: 262_144, source: 'catalog' },
  output_cap: { field: 'max_tokens', default_tokens: 32_768 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'mfjs' },
  tool_choice: TOOL_CHOICE,
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
    // kimi-k2.7-code always thinks and refuses `disabled`: send nothing unless the user asks.
    default_tier: null,
  },
  provenance: { source: 'Moonshot platform docs: tool use, thinking models, MFJS spec, 2026-08' },
};

/** Kimi Code's K3 route: the effort nests inside `thinking`, beside `type: enabled`. */
export const KIMI_CODE_K3_ROW: CapabilityRowInput = {
  provider_id: 'moonshot',
  provider_display: 'Kimi Code',
  route_id: 'kimi-code-k3',
  dialect: 'chat-completions',
  route_shape: 'kimi-code-k3',
  endpoint: { base_url: 'https://api.kimi.com/coding/v1', path: '/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'KIMI_API_KEY' },
  model: { default: 'k3', catalog: ['k3', 'kimi-for-coding'] },
  // The safe floor until the provider reports its 1,048,576-token window for this account.
  context: { window_tokens: 262_144, source: 'fallback' },
  output_cap: { field: 'max_tokens', default_tokens: 32_768 },
  billing: { kind: 'subscription', plan: 'Kimi Code quota' },
  tool_schema: { dialect: 'mfjs' },
  tool_choice: TOOL_CHOICE,
  reasoning: {
    key_path: 'thinking.effort',
    value_kind: 'effort',
    values: K3_EFFORT,
    also_set: { all: THINKING_ON },
    default_tier: null,
    conflicting_params: ['reasoning_effort'],
  },
  provenance: { source: 'Kimi Code docs: K3 thinking effort, 2026-08' },
};

/**
 * Moonshot's own K3 route: a top-level `reasoning_effort`, no `thinking` object, sampling fixed by
 * the platform (temperature and top_p are never sent) and `max_completion_tokens` for the cap.
 */
export const MOONSHOT_K3_ROW: CapabilityRowInput = {
  provider_id: 'moonshot',
  provider_display: 'Moonshot (Kimi)',
  route_id: 'moonshot-k3',
  dialect: 'chat-completions',
  route_shape: 'direct-moonshot-k3',
  endpoint: { base_url: 'https://api.moonshot.ai/v1', path: '/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'MOONSHOT_API_KEY' },
  model: { default: 'kimi-k3', catalog: ['kimi-k3', 'kimi-k3.1-pro'] },
  context: { window_tokens: 262_144, source: 'catalog' },
  output_cap: { field: 'max_completion_tokens', default_tokens: 32_768 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'mfjs' },
  tool_choice: TOOL_CHOICE,
  reasoning: {
    key_path: 'reasoning_effort',
    value_kind: 'effort',
    values: K3_EFFORT,
    default_tier: null,
    conflicting_params: ['thinking'],
  },
  omit_body_keys: ['temperature', 'top_p'],
  provenance: { source: 'Moonshot platform docs: kimi-k3 reasoning effort, 2026-08' },
};

/** Every route this plugin registers. */
export const MOONSHOT_ROWS: readonly CapabilityRowInput[] = [MOONSHOT_ROW, KIMI_CODE_K3_ROW, MOONSHOT_K3_ROW];
