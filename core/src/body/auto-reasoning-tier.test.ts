import { describe, expect, it } from 'vitest';
import { autoReasoningTier } from './auto-reasoning-tier.js';

describe('autoReasoningTier', () => {
  it.each([
    ['hello', 'medium'],
    ['inspect this repository and fix the failing tests', 'high'],
    ['rename the variable', 'low'],
    ['fix the typo', 'high'],
    ['investigate the race condition, find the root cause and refactor the locking', 'max'],
    ['a'.repeat(1_001), 'high'],
    ['a'.repeat(8_001), 'max'],
  ] as const)('%s -> %s', (text, tier) => {
    expect(autoReasoningTier(text)).toBe(tier);
  });

  it('ignores case and never returns auto or off', () => {
    expect(autoReasoningTier('DEBUG THIS')).toBe('high');
    expect(autoReasoningTier('')).toBe('medium');
  });
});
