import { describe, expect, it } from 'vitest';
import { reasoningLayout } from './reasoning-layout.js';

describe('reasoningLayout', () => {
  it('keeps the control keys in order and derives effort and budget paths from them', () => {
    expect(reasoningLayout(['thinking', 'output_config'])).toEqual({
      controlKeys: ['thinking', 'output_config'],
      disclosureKeys: [],
      effortPaths: ['reasoning_effort', 'thinking.effort', 'output_config.effort'],
      budgetPaths: ['thinking.budget_tokens', 'output_config.budget_tokens'],
    });
  });

  it('reports disclosure keys only where they are control keys, in control-key order', () => {
    expect(reasoningLayout(['reasoning', 'include'], ['include', 'elsewhere']).disclosureKeys).toEqual(['include']);
  });

  it('an empty list still reads the flat effort key', () => {
    expect(reasoningLayout([])).toEqual({
      controlKeys: [],
      disclosureKeys: [],
      effortPaths: ['reasoning_effort'],
      budgetPaths: [],
    });
  });

  it('does not share the caller array', () => {
    const keys = ['thinking'];
    const layout = reasoningLayout(keys);
    keys.push('late');
    expect(layout.controlKeys).toEqual(['thinking']);
  });
});
