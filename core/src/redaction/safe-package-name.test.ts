import { describe, expect, it } from 'vitest';
import { safePackageName } from './safe-package-name.js';

describe('safePackageName', () => {
  it.each(['@cw/provider-deepseek', 'cw-plugin-example', '@acme/cw-plugin.tools', 'plugin_1'])(
    'publishes the npm name %s',
    (name) => {
      expect(safePackageName(name)).toBe(name);
    },
  );

  it.each([
    '/home/someone/plugins/local-plugin',
    '../evil-plugin',
    '@evil/../../x',
    '@a/b/c',
    'Capitalized',
    'C:\\plugins\\x',
    '@acme/plugin\u0000real',
    'sk-' + 'test-' + '0'.repeat(24),
    'plugin-for-acme-prod-7f3a.openai.azure.com',
    '@x/' + 'a'.repeat(70),
  ])('fingerprints %j', (name) => {
    expect(safePackageName(name)).toMatch(/^sha256:[0-9a-f]{12}$/);
  });
});
