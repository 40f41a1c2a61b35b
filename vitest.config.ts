import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: {
    alias: {
      '@cw/core': fileURLToPath(new URL('./core/src/index.ts', import.meta.url)),
      '@cw/plugin-kit': fileURLToPath(new URL('./plugins/plugin-kit/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: [
      'test/**/*.test.ts',
      'core/src/**/*.test.ts',
      'cli/src/**/*.test.ts',
      'plugins/*/src/**/*.test.ts',
      'plugin-template/src/**/*.test.ts',
    ],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // oclif's this.log() is console.log; @oclif/test's runCommand only sees it without interception.
    disableConsoleIntercept: true,
  },
});
