import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Vitest's default is one worker fewer than cores: one on a 2-core machine, idle while suites wait on child
    // processes, servers and PostgreSQL. Limits only fail a broken build: the suite must pass on a loaded machine.
    maxWorkers: Math.max(2, availableParallelism()),
    // Test files share their worker's module graph (the library keeps no global state, and no test mocks a module):
    // a third less CPU than importing vitest, the SDK and src/ again for each of the hundred files.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
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
      // Each file's numbers: coverage/coverage-summary.json.
      reporter: [['text-summary'], ['json-summary']],
      thresholds: { lines: 97, branches: 89 },
    },
  },
});
