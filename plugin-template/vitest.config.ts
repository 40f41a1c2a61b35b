import { defineConfig } from 'vitest/config';

// The plugin's own tests; a copy of this folder runs them with `npm test`.
export default defineConfig({
  test: { include: ['src/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
});
