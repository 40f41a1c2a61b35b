import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: {
    // Exact names: a bare '@cw/core' key would also rewrite '@cw/core/plugin' as a path under index.ts.
    alias: [
      { find: /^@cw\/core$/, replacement: fileURLToPath(new URL('./core/src/index.ts', import.meta.url)) },
      { find: /^@cw\/core\/plugin$/, replacement: fileURLToPath(new URL('./core/src/plugin.ts', import.meta.url)) },
      {
        find: /^@cw\/plugin-kit$/,
        replacement: fileURLToPath(new URL('./plugins/plugin-kit/src/index.ts', import.meta.url)),
      },
    ],
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
    // Most test files wait on child processes (the CLI, MCP servers, tmux, a registry), so two files
    // at a time on a 2-core machine finish in about two thirds of the time one at a time takes.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // oclif's this.log() is console.log; @oclif/test's runCommand only sees it without interception.
    disableConsoleIntercept: true,
  },
});
