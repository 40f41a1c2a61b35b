import { describe, expect, it } from 'vitest';
import { safeIdentifier } from './safe-label.js';
import { safeKeyPath } from './safe-key-path.js';

describe('safeKeyPath', () => {
  it.each([
    'reasoning_effort',
    'thinking.budget_tokens',
    'google.thinking_config.thinking_level',
    'settings.thinkingConfig.thinkingLevel',
  ])('publishes the key path %s as it is', (path) => {
    expect(safeKeyPath(path)).toBe(path);
  });

  it('publishes a camelCase path safeIdentifier would take for a host name', () => {
    expect(safeIdentifier('settings.thinkingConfig.thinkingLevel')).toMatch(/^sha256:/);
    expect(safeKeyPath('settings.thinkingConfig.thinkingLevel')).toBe('settings.thinkingConfig.thinkingLevel');
  });

  it.each([
    'auth.api_key',
    'options.secret',
    'x.AKIAIOSFODNN7EXAMPLEKEY',
    'https://api.example.com',
    'a..b',
    '.a',
    'a-b.c',
    'a.b c',
    `a.${'b'.repeat(70)}`,
  ])('fingerprints %s', (path) => {
    expect(safeKeyPath(path)).toMatch(/^sha256:[0-9a-f]{12}$/);
  });
});
