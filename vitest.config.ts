import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // One PostgreSQL server per run, started when the first suite asks for it.
    globalSetup: ['test/stores/pg-global-setup.ts'],
  },
});
