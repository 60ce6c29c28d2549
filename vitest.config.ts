import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // One PostgreSQL server per run, started when the first suite asks for it.
    globalSetup: ['test/stores/pg-global-setup.ts'],
    // With --coverage, child processes that run src/ through tsx record their coverage (merged by the reporter below).
    setupFiles: ['test/support/child-coverage-setup.ts'],
    reporters: ['default', './test/support/coverage-by-folder.ts'],
    // `npm test` runs with --coverage: the floor below fails the run when coverage drops under today's level.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: [['text-summary']],
      thresholds: { lines: 93, branches: 85 },
    },
  },
});
