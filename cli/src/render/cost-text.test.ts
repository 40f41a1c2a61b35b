import { describe, expect, it } from 'vitest';
import { costText, sessionCostText, usdText } from './cost-text.js';

describe('usdText', () => {
  it('shows four decimals below a dollar and cents above, rounded half up', () => {
    expect(usdText(0.012207)).toBe('$0.0122');
    expect(usdText(0.00005)).toBe('$0.0001');
    expect(usdText(0.99995)).toBe('$1.00');
    expect(usdText(0.000049)).toBe('<$0.0001');
    expect(usdText(1.005)).toBe('$1.01');
    expect(usdText(1234.5)).toBe('$1,234.50');
  });

  it('never says $0.0000 for a cost that is not zero', () => {
    expect(usdText(0)).toBe('$0.00');
    expect(usdText(0.000001)).toBe('<$0.0001');
  });
});

describe('costText', () => {
  it('says the amount, or why it is unknown', () => {
    expect(costText({ usd: 0.5 })).toBe('cost $0.5000');
    expect(costText({ usd: null, reason: 'route-not-metered' })).toBe('cost unknown (not billed per token)');
    expect(sessionCostText({ usd: 2, steps_without_cost: 0 })).toBe('session $2.00');
    expect(sessionCostText({ usd: 2, steps_without_cost: 1 })).toBe('session $2.00, 1 step(s) unpriced');
  });
});
