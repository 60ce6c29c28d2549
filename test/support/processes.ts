import { fileURLToPath } from 'node:url';
import { mirrorOf } from './ts-mirror.mjs';

/**
 * Whether this run starts child processes. `npm run test:node22` (scripts/test-node-matrix.sh --in-process) runs the
 * in-process suites again on another Node major and sets MCP_PROMPT_KIT_IN_PROCESS=1: the child-process parts of
 * mixed files are left to the main run (`npm test` on Node 20, `npm run test:matrix` on every major).
 */
export const STARTS_CHILD_PROCESSES = process.env['MCP_PROMPT_KIT_IN_PROCESS'] !== '1';

/**
 * The share of generated cases (property runs, generated texts) a run without child processes draws: the same checks
 * on another Node major, beside the full count on Node 20 in the same `npm test`.
 */
export const IN_PROCESS_SHARE = 0.1;

/** How many of `count` generated cases this run draws: all, or {@link IN_PROCESS_SHARE} of them in the in-process run. */
export function generatedCases(count: number): number {
  return STARTS_CHILD_PROCESSES ? count : Math.max(1, Math.ceil(count * IN_PROCESS_SHARE));
}

/**
 * Where a run that measures coverage collects its child processes' coverage (set by
 * test/support/coverage-by-folder.ts).
 */
export const CHILD_COVERAGE_VARIABLE = 'MCP_PROMPT_KIT_CHILD_COVERAGE';

const RECORDER = new URL('./child-coverage.mjs', import.meta.url).href;

/**
 * The environment a child needs to count in the run's coverage: empty when the run does not measure it. A child that
 * inherits this process's environment has it already (test/support/child-coverage-setup.ts); pass it where a child
 * gets an environment of its own (`env: { ...childCoverageEnv(), PATH }`, the SDK's stdio transport).
 */
export function childCoverageEnv(): Record<string, string> {
  const dir = process.env[CHILD_COVERAGE_VARIABLE];
  if (dir === undefined || dir === '') return {};
  const options = process.env['NODE_OPTIONS'] ?? '';
  const recorder = `--import=${RECORDER}`;
  return {
    [CHILD_COVERAGE_VARIABLE]: dir,
    NODE_OPTIONS: options.includes(recorder) ? options : `${options} ${recorder}`.trim(),
  };
}

/**
 * Node's arguments that run a TypeScript file through module hooks (test/support/ts-hooks.mjs: about 1 s less CPU per
 * process than `--import tsx`), for a program outside the mirror {@link tsNodeArgs} runs.
 */
export const TS_NODE_ARGS: readonly string[] = [
  '--import',
  fileURLToPath(new URL('./ts-register.mjs', import.meta.url)),
];

/**
 * Node's arguments that run the TypeScript file `file` (under src/, test/ or examples/; absolute or relative to the
 * repository) in a child process: its JavaScript in the mirror of the repository's TypeScript (test/support/
 * ts-mirror.mjs), run without module hooks (about 0.3 s less CPU per process than {@link TS_NODE_ARGS}). Tests of a
 * documented command (`npm run demo`, an installed project) keep tsx.
 */
export function tsNodeArgs(file: string): string[] {
  return [mirrorOf(file)];
}
