import { capabilityRowSchema, type BuildContext, type WireBody } from '@cw/core';
import { describe, expect, it } from 'vitest';
import { refineOpenModelBody } from './openmodel-build-body.js';
import { OPENMODEL_ROW } from './openmodel-capability-rows.js';

const row = { ...capabilityRowSchema.parse(OPENMODEL_ROW), plugin: '@cw/provider-openmodel' };
const context = { row } as unknown as BuildContext;
const body = (maxTokens: number, budget: number): WireBody => ({
  model: 'm',
  max_tokens: maxTokens,
  thinking: { type: 'enabled', budget_tokens: budget },
  messages: [],
});

describe('refineOpenModelBody', () => {
  it('keeps a budget that fits below max_tokens', () => {
    const fits = body(32_000, 16_384);
    expect(refineOpenModelBody(fits, context)).toBe(fits);
  });

  it('lowers the budget to max_tokens - 1', () => {
    expect(refineOpenModelBody(body(8_000, 32_768), context)['thinking']).toEqual({
      type: 'enabled',
      budget_tokens: 7_999,
    });
  });

  it('drops thinking when less than 1,024 tokens would be left for it', () => {
    const refined = refineOpenModelBody(body(1_024, 4_096), context);
    expect('thinking' in refined).toBe(false);
    expect(refined['max_tokens']).toBe(1_024);
  });

  it('leaves other routes and bodies without a budget alone', () => {
    const other = { row: { ...row, route_id: 'anthropic' } } as unknown as BuildContext;
    const tight = body(1_024, 4_096);
    expect(refineOpenModelBody(tight, other)).toBe(tight);
    const plain: WireBody = { model: 'm', max_tokens: 10, messages: [] };
    expect(refineOpenModelBody(plain, context)).toBe(plain);
  });
});
