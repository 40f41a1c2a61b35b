import { describe, expect, it } from 'vitest';
import type { CapabilityRow } from '../route/capability-row.js';
import { planReasoning } from './plan-reasoning.js';

function rowWith(reasoning: Partial<NonNullable<CapabilityRow['reasoning']>>): CapabilityRow {
  return {
    reasoning: {
      key_path: 'reasoning_effort',
      value_kind: 'effort',
      values: {},
      also_set: {},
      default_tier: null,
      conflicting_params: [],
      ...reasoning,
    },
  } as unknown as CapabilityRow;
}

describe('planReasoning', () => {
  const row = rowWith({
    values: { off: null, low: 'low', high: 'high' },
    also_set: { all: { 'a.b': 1, 'a.c': 1 }, on: { 'a.c': 2, 'a.d': 2 }, high: { 'a.d': 3 } },
    default_tier: 'low',
  });

  it('merges also_set as all < on < the tier itself', () => {
    expect(planReasoning(row, 'high')?.alsoSet).toEqual({ 'a.b': 1, 'a.c': 2, 'a.d': 3 });
    expect(planReasoning(row, 'low')?.alsoSet).toEqual({ 'a.b': 1, 'a.c': 2, 'a.d': 2 });
  });

  it('leaves `on` out for off, so a toggle-only off still sends its `all` paths', () => {
    expect(planReasoning(row, 'off')).toMatchObject({ tier: 'off', wireValue: null, alsoSet: { 'a.b': 1, 'a.c': 1 } });
  });

  it('marks the row default as route-default and a user tier as explicit', () => {
    expect(planReasoning(row, undefined)?.origin).toBe('route-default');
    expect(planReasoning(row, 'high')?.origin).toBe('explicit');
  });

  it('auto picks the tier from the text and maps it through the row like any tier', () => {
    expect(planReasoning(row, 'auto', 'fix the failing test')).toMatchObject({
      tier: 'high',
      origin: 'auto',
      wireValue: 'high',
    });
    expect(planReasoning(row, 'auto', 'rename it')).toMatchObject({ tier: 'low', origin: 'auto', wireValue: 'low' });
  });

  it('sends nothing for a tier the row maps to nothing', () => {
    expect(planReasoning(rowWith({ values: { off: null } }), 'off')).toBeNull();
    expect(planReasoning(rowWith({ values: { high: 'high' } }), undefined)).toBeNull();
  });
});
