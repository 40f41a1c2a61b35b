import { PluginRegistry } from '@cw/core';
import type { LoadedPlugin, WireBody } from '@cw/core/plugin';
import { describe, expect, it } from 'vitest';
import { OPENMODEL_BODY_MATCH, OPENMODEL_BODY_STAGE, refineOpenModelBody } from './openmodel-build-body.js';
import { OPENMODEL_ROW } from './openmodel-capability-rows.js';
import { register } from './index.js';

/** What one register call recorded; the registry fills it in. */
type Registrations = Pick<LoadedPlugin, 'routeIds' | 'dialectIds' | 'toolNames' | 'refiners'>;

const body = (maxTokens: number, budget: number): WireBody => ({
  model: 'm',
  max_tokens: maxTokens,
  thinking: { type: 'enabled', budget_tokens: budget },
  messages: [],
});

describe('refineOpenModelBody', () => {
  it('keeps a budget that fits below max_tokens', () => {
    const fits = body(32_000, 16_384);
    expect(refineOpenModelBody(fits)).toBe(fits);
  });

  it('lowers the budget to max_tokens - 1', () => {
    expect(refineOpenModelBody(body(8_000, 32_768))['thinking']).toEqual({
      type: 'enabled',
      budget_tokens: 7_999,
    });
  });

  it('drops thinking when less than 1,024 tokens would be left for it', () => {
    const refined = refineOpenModelBody(body(1_024, 4_096));
    expect('thinking' in refined).toBe(false);
    expect(refined['max_tokens']).toBe(1_024);
  });

  it('leaves bodies without a budget, or without a numeric max_tokens, alone', () => {
    const plain: WireBody = { model: 'm', max_tokens: 10, messages: [] };
    expect(refineOpenModelBody(plain)).toBe(plain);
    const noBudget: WireBody = { model: 'm', max_tokens: 10, thinking: { type: 'adaptive' } };
    expect(refineOpenModelBody(noBudget)).toBe(noBudget);
    const listThinking: WireBody = { model: 'm', max_tokens: 10, thinking: [1] };
    expect(refineOpenModelBody(listThinking)).toBe(listThinking);
    const noCap: WireBody = { model: 'm', thinking: { type: 'enabled', budget_tokens: 4_096 } };
    expect(refineOpenModelBody(noCap)).toBe(noCap);
  });

  it('declares OpenModel’s own route as its match, so other Anthropic routes keep their budget', () => {
    expect(OPENMODEL_BODY_MATCH).toEqual({ routeIds: [OPENMODEL_ROW.route_id] });
  });
});

describe('register', () => {
  it('records the refiner with its match and stage in a real registry', () => {
    const registry = new PluginRegistry();
    const registered: Registrations = { routeIds: [], dialectIds: [], toolNames: [], refiners: [] };
    register(registry.apiFor('@cw/provider-openmodel', registered));
    expect(registry.problems).toEqual([]);
    expect(registered).toEqual({
      routeIds: [OPENMODEL_ROW.route_id],
      dialectIds: [],
      toolNames: [],
      refiners: [{ match: OPENMODEL_BODY_MATCH, stage: OPENMODEL_BODY_STAGE }],
    });
  });
});
