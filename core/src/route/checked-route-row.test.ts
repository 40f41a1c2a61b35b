import { beforeEach, describe, expect, it } from 'vitest';
import { isSealed } from '../canonical/sealed-json.js';
import { capabilityRowSchema, type CapabilityRowInput } from './capability-row.js';
import { checkAnsweredRow, checkRouteRow, clearCheckedRouteRows, routeRowsChecked } from './checked-route-row.js';
import { resolveModelFacts } from './model-facts.js';

const BASE: CapabilityRowInput = {
  provider_id: 'acme',
  provider_display: 'Acme',
  route_id: 'acme',
  dialect: 'chat-completions',
  route_shape: 'standard',
  endpoint: { base_url: 'https://api.acme.test', path: '/v1/chat/completions' },
  auth: { scheme: 'bearer', api_key_env: 'ACME_KEY' },
  model: { default: 'acme-large', wire_map: {} },
  context: { window_tokens: 100_000, source: 'catalog', output_limit_tokens: 50_000 },
  output_cap: { field: 'max_tokens', default_tokens: 8_000 },
  billing: { kind: 'metered' },
  tool_schema: { dialect: 'loose' },
  tool_choice: { accepted: ['auto'] },
  reasoning: null,
  models: [{ match: { ids: ['acme-fast'] }, context: { window_tokens: 32_000 } }],
  provenance: { source: 'test' },
};

// What resolveRoute computed before rows were kept: both checks, each time.
function uncached(input: unknown, model: string, plugin: string) {
  const base = capabilityRowSchema.parse(input);
  const facts = resolveModelFacts(base, model);
  return {
    row: { ...capabilityRowSchema.parse(facts.row), plugin },
    facts: { match: facts.match, provenance: facts.provenance },
  };
}

function checked(input: unknown, model: string) {
  const result = checkRouteRow(input, model);
  if (!result.ok) throw new Error(`unexpected failure: ${result.failed}`);
  return result;
}

describe('checkRouteRow', () => {
  beforeEach(() => clearCheckedRouteRows());

  it('checks a row once and gives the same sealed row after that, equal to what the checks give', () => {
    const before = routeRowsChecked();
    const first = checked(structuredClone(BASE), 'acme-fast');
    const second = checked(structuredClone(BASE), 'acme-fast');
    expect(routeRowsChecked() - before).toBe(1);
    expect(second.rowFor('p')).toBe(first.rowFor('p'));
    expect(isSealed(first.rowFor('p'))).toBe(true);
    const expected = uncached(BASE, 'acme-fast', 'p');
    expect(first.rowFor('p')).toEqual(expected.row);
    expect(first.facts).toEqual(expected.facts);
    expect(first.rowFor('q')).toEqual({ ...expected.row, plugin: 'q' });
  });

  it('checks again when the row text or the model changes', () => {
    const before = routeRowsChecked();
    checked(structuredClone(BASE), 'acme-large');
    checked(structuredClone(BASE), 'acme-fast');
    const changed = checked(
      { ...structuredClone(BASE), context: { ...BASE.context, window_tokens: 64_000 } },
      'acme-large',
    );
    expect(routeRowsChecked() - before).toBe(3);
    expect(changed.rowFor('p').context.window_tokens).toBe(64_000);
    expect(checked(structuredClone(BASE), 'acme-large').rowFor('p').context.window_tokens).toBe(100_000);
  });

  it('never keeps a failure, and names which check failed', () => {
    const bad = { ...structuredClone(BASE), endpoint: 'not an endpoint' };
    const before = routeRowsChecked();
    expect(checkRouteRow(bad, 'acme-large')).toMatchObject({ ok: false, failed: 'row' });
    expect(checkRouteRow(bad, 'acme-large')).toMatchObject({ ok: false, failed: 'row' });
    expect(routeRowsChecked() - before).toBe(2);
    const badModel = {
      ...structuredClone(BASE),
      models: [{ match: { ids: ['acme-fast'] }, omit_body_keys: ['Not A Key'] }],
    };
    expect(checkRouteRow(badModel, 'acme-fast')).toMatchObject({ ok: false });
  });

  it('does not keep a row whose JSON text cannot say what the schema sees', () => {
    const withUndefined = { ...structuredClone(BASE), image_input: undefined };
    const first = checked(withUndefined, 'acme-large');
    const second = checked(withUndefined, 'acme-large');
    expect(second.rowFor('p')).not.toBe(first.rowFor('p'));
    expect(second.rowFor('p')).toEqual(first.rowFor('p'));
  });
});

describe('checkAnsweredRow', () => {
  beforeEach(() => clearCheckedRouteRows());

  it("checks a tap's answer without its plugin claim, once, and finds it again without copying it", () => {
    const before = routeRowsChecked();
    const answered = { ...structuredClone(BASE), plugin: '@acme/claimed' };
    const first = checkAnsweredRow(answered, 'acme-fast');
    const second = checkAnsweredRow({ ...structuredClone(BASE), plugin: '@acme/claimed' }, 'acme-fast');
    expect(routeRowsChecked() - before).toBe(1);
    if (!first.ok || !second.ok) throw new Error('unexpected failure');
    expect(second.rowFor('p')).toBe(first.rowFor('p'));
    expect(first.rowFor('p')).toEqual(uncached(BASE, 'acme-fast', 'p').row);
  });

  it('checks again when the row, the model or the claim changes, and keeps no failure', () => {
    const before = routeRowsChecked();
    checkAnsweredRow({ ...structuredClone(BASE), plugin: 'a' }, 'acme-fast');
    checkAnsweredRow({ ...structuredClone(BASE), plugin: 'b' }, 'acme-fast');
    checkAnsweredRow({ ...structuredClone(BASE), plugin: 'a' }, 'acme-large');
    const larger = { ...structuredClone(BASE), plugin: 'a', context: { ...BASE.context, window_tokens: 64_000 } };
    const changed = checkAnsweredRow(larger, 'acme-large');
    expect(routeRowsChecked() - before).toBe(4);
    if (!changed.ok) throw new Error('unexpected failure');
    expect(changed.rowFor('p').context.window_tokens).toBe(64_000);
    const bad = { ...structuredClone(BASE), plugin: 'a', endpoint: 'not an endpoint' };
    expect(checkAnsweredRow(bad, 'acme-large')).toMatchObject({ ok: false, failed: 'row' });
    expect(checkAnsweredRow(bad, 'acme-large')).toMatchObject({ ok: false, failed: 'row' });
    expect(routeRowsChecked() - before).toBe(6);
  });
});
