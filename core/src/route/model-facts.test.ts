import { describe, expect, it } from 'vitest';
import { capabilityRowSchema, type CapabilityRowInput } from './capability-row.js';
import { matchModelOverride, resolveModelFacts } from './model-facts.js';

const BASE: CapabilityRowInput = {
  provider_id: 'acme',
  provider_display: 'Acme',
  route_id: 'acme',
  dialect: 'chat-completions',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.acme.test', path: '/v1/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'ACME_KEY' },
  model: { default: 'acme-large', wire_map: { 'acme-old': 'acme-fast' } },
  context: { window_tokens: 100_000, source: 'catalog', output_limit_tokens: 50_000 },
  output_cap: { field: 'max_tokens', default_tokens: 8_000 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'loose' },
  tool_choice: { accepted: ['auto'] },
  reasoning: null,
  models: [
    { match: { pattern: 'acme-.*' }, tokenizer: 'cl100k_base' },
    {
      match: { ids: ['acme-fast'] },
      dialect: 'openai-responses',
      endpoint_path: '/responses',
      output_cap: { field: 'max_output_tokens' },
      context: { window_tokens: 32_000 },
    },
    { match: { ids: ['acme-fast'] }, image_input: true },
  ],
  provenance: { source: 'test' },
};

const row = capabilityRowSchema.parse(BASE);

describe('matchModelOverride', () => {
  it('prefers an exact id to a pattern, and the first override of a kind', () => {
    expect(matchModelOverride(row.models, 'acme-fast', 'acme-fast')).toEqual({ by: 'id', on: 'selected', index: 1 });
    expect(matchModelOverride(row.models, 'acme-large', 'acme-large')).toEqual({
      by: 'pattern',
      on: 'selected',
      index: 0,
    });
    expect(matchModelOverride(row.models, 'other', 'other')).toBeNull();
  });

  it('falls back to the wire id, so an alias takes the facts of the model it stands for', () => {
    expect(matchModelOverride(row.models, 'acme-old', 'acme-fast')).toEqual({ by: 'id', on: 'wire', index: 1 });
  });

  it('matches a pattern against the whole id only', () => {
    expect(matchModelOverride(row.models, 'not-acme-x', 'not-acme-x')).toBeNull();
  });
});

describe('resolveModelFacts', () => {
  it('replaces what the override sets, merges cap and window key by key, and records provenance', () => {
    const facts = resolveModelFacts(row, 'acme-old');
    expect(facts.wireModel).toBe('acme-fast');
    expect(facts.row.dialect).toBe('openai-responses');
    expect(facts.row.endpoint).toEqual({ base_url: 'https://api.acme.test', path: '/responses', streaming_path: null });
    expect(facts.row.output_cap).toEqual({ field: 'max_output_tokens', default_tokens: 8_000, reserve_tokens: null });
    expect(facts.row.context).toEqual({
      window_tokens: 32_000,
      source: 'catalog',
      input_limit_tokens: null,
      output_limit_tokens: 50_000,
    });
    expect(facts.row.auth).toEqual(row.auth);
    expect(facts.provenance).toMatchObject({
      dialect: 'model',
      endpoint_path: 'model',
      context: 'model',
      tokenizer: 'row',
    });
  });

  it('leaves a model without an override on the row, every fact from the row', () => {
    const facts = resolveModelFacts(row, 'other');
    expect(facts.row).toBe(row);
    expect(facts.match).toBeNull();
    expect(Object.values(facts.provenance).every((source) => source === 'row')).toBe(true);
  });

  it('a model override may take reasoning away (null) as well as replace it', () => {
    const withReasoning = capabilityRowSchema.parse({
      ...BASE,
      reasoning: { key_path: 'reasoning_effort', value_kind: 'effort', values: { high: 'high' }, default_tier: 'high' },
      models: [{ match: { ids: ['acme-mini'] }, reasoning: null }],
    });
    expect(resolveModelFacts(withReasoning, 'acme-mini').row.reasoning).toBeNull();
    expect(resolveModelFacts(withReasoning, 'acme-large').row.reasoning?.key_path).toBe('reasoning_effort');
  });
});

describe('override validation', () => {
  it('rejects an override that matches nothing, or a pattern that does not compile', () => {
    expect(capabilityRowSchema.safeParse({ ...BASE, models: [{ match: {} }] }).success).toBe(false);
    expect(capabilityRowSchema.safeParse({ ...BASE, models: [{ match: { pattern: '(' } }] }).success).toBe(false);
  });

  it('has no field for the base URL or the key: a model cannot move a route to another host', () => {
    const moved = { ...BASE, models: [{ match: { ids: ['x'] }, endpoint: { base_url: 'https://evil.test' } }] };
    expect(capabilityRowSchema.safeParse(moved).success).toBe(false);
    const rekeyed = { ...BASE, models: [{ match: { ids: ['x'] }, auth: { scheme: 'none', api_key_env: null } }] };
    expect(capabilityRowSchema.safeParse(rekeyed).success).toBe(false);
  });

  it('a reservation is only for a route that sends no cap', () => {
    expect(
      capabilityRowSchema.safeParse({
        ...BASE,
        output_cap: { field: 'max_tokens', default_tokens: 1, reserve_tokens: 5 },
      }).success,
    ).toBe(false);
    expect(
      capabilityRowSchema.safeParse({ ...BASE, output_cap: { field: null, default_tokens: 1, reserve_tokens: 5 } })
        .success,
    ).toBe(true);
  });
});
