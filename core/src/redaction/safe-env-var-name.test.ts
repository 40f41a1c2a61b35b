import { describe, expect, it } from 'vitest';
import { safeEnvVarName } from './safe-env-var-name.js';

describe('safeEnvVarName', () => {
  it.each([
    'MOONSHOT_API_KEY',
    'DEEPSEEK_API_KEY',
    'ANTHROPIC_API_KEY',
    'CW_TEST_KEY',
    'LOCAL_API_KEY_2',
    '_CW_PRIVATE_KEY',
  ])('shows %s', (name) => {
    expect(safeEnvVarName(name)).toBe(name);
  });

  it.each([
    'AKIAFAKETESTZZ234567',
    `SK_TEST_${'0'.repeat(24)}`,
    'lowercase_name',
    '/home/someone/.env',
    'NAME WITH SPACES',
    `A${'_B'.repeat(40)}`,
    'CW_ABCDEFGHIJKLMNOPQRST_KEY',
  ])('fingerprints %s', (name) => {
    expect(safeEnvVarName(name)).toMatch(/^sha256:[0-9a-f]{12}$/);
  });
});
