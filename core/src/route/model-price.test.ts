import { describe, expect, it } from 'vitest';
import { PluginRegistry } from '../plugins/plugin-registry.js';
import type { CapabilityRowInput } from './capability-row.js';
import type { ModelPriceInput } from './model-price.js';

const ROW: CapabilityRowInput = {
  provider_id: 'acme',
  provider_display: 'Acme',
  route_id: 'acme',
  dialect: 'chat-completions',
  route_shape: 'standard',
  endpoint: { base_url: 'https://llm.acme.example/v1', path: '/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'ACME_API_KEY' },
  model: { default: 'acme-large' },
  context: { window_tokens: 64_000, source: 'catalog' },
  output_cap: { field: 'max_tokens', default_tokens: 4_096 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'loose' },
  tool_choice: { accepted: ['auto'] },
  reasoning: null,
  provenance: { source: 'Acme docs' },
};

const PRICE: ModelPriceInput = {
  models: ['acme-large'],
  usd_per_mtok: { input: 1.25, output: 10, cache_read: 0.125, cache_write: null },
  source: 'https://acme.example/pricing',
  as_of: '2026-12-06',
};

/** Registers the row with these prices; the problems the registry reports. */
function register(prices: unknown): readonly string[] {
  const registry = new PluginRegistry();
  registry.apiFor('@acme/provider').addRoute({ ...ROW, prices } as CapabilityRowInput);
  return registry.problems.map((problem) => `${problem.code}: ${problem.detail}`);
}

describe('prices on a capability row', () => {
  it('a row with a price per model, null where unknown, registers', () => {
    const registry = new PluginRegistry();
    registry.apiFor('@acme/provider').addRoute({ ...ROW, prices: [PRICE] });
    expect(registry.problems).toEqual([]);
    expect(registry.row('acme')?.prices).toEqual([PRICE]);
  });

  it('a row without prices has none', () => {
    const registry = new PluginRegistry();
    registry.apiFor('@acme/provider').addRoute(ROW);
    expect(registry.row('acme')?.prices).toEqual([]);
  });

  it.each([
    [
      'a negative price',
      { ...PRICE, usd_per_mtok: { ...PRICE.usd_per_mtok, input: -1 } },
      'prices.0.usd_per_mtok.input',
    ],
    [
      'a price that is not a number',
      { ...PRICE, usd_per_mtok: { ...PRICE.usd_per_mtok, output: '10' } },
      'prices.0.usd_per_mtok.output',
    ],
    [
      'a price finer than a millionth',
      { ...PRICE, usd_per_mtok: { ...PRICE.usd_per_mtok, cache_read: 0.0000001 } },
      'prices.0.usd_per_mtok.cache_read',
    ],
    ['a source that is not an https page', { ...PRICE, source: 'pricing page' }, 'prices.0.source'],
    [
      'a source with a query, printed as it is',
      { ...PRICE, source: 'https://acme.example/p?key=abc' },
      'prices.0.source',
    ],
    ['a date that is not a date', { ...PRICE, as_of: 'December' }, 'prices.0.as_of'],
    [
      'a missing kind of price',
      { ...PRICE, usd_per_mtok: { input: 1, output: 2, cache_read: null } },
      'prices.0.usd_per_mtok.cache_write',
    ],
  ])('%s is rejected in one line naming the field and the row', (_what, price, field) => {
    const problems = register([price]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      new RegExp(`^invalid-row: row field ${field.replaceAll('.', '\\.')}: [^\\n]+ \\(route acme\\)$`),
    );
  });

  it('a model may have one price only', () => {
    expect(register([PRICE, { ...PRICE, usd_per_mtok: { ...PRICE.usd_per_mtok, input: 2 } }])).toEqual([
      'invalid-row: row field prices: a model may have one price only (route acme)',
    ]);
  });
});
