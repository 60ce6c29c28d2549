/**
 * The part of @bcoe/v8-coverage (plain JavaScript, no types of its own) that test/support/child-coverage-merge.ts uses.
 */
declare module '@bcoe/v8-coverage' {
  import type { Profiler } from 'node:inspector';

  /** Merges one script's coverage from several processes (counts added range by range); mutates its inputs. */
  export function mergeScriptCovs(scripts: Profiler.ScriptCoverage[]): Profiler.ScriptCoverage | undefined;
}
