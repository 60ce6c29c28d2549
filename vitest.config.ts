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
    // `npm test` runs with --coverage: the floor below fails the run when coverage drops under today's level. It counts
    // what child processes run of src/ too (merged by the reporter before vitest checks the floor).
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: [['text-summary']],
      thresholds: { lines: 94, branches: 88 },
    },
  },
});
