import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Vitest's default is one worker fewer than cores: one on a 2-core machine, idle while suites wait on child
    // processes, servers and PostgreSQL. Limits only fail a broken build: the suite must pass on a loaded machine.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One PostgreSQL server per run, started when the first suite asks for it.
    globalSetup: ['test/stores/pg-global-setup.ts'],
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
