/**
 * Hot reload under load (short; `npm run soak` runs the long one): gets through the SDK adapter and HTTP while the
 * prompt files are rewritten on a fixed PRNG schedule.
 */
import { describe, expect, it } from 'vitest';
import { runFilesSoak } from './soak.js';

const GETS = 1_000;
const REWRITES = 60;

describe('prompt files rewritten under load', () => {
  it('answers every get with exactly an old or a new version, never fails one, and ends at the last good state', async () => {
    const report = await runFilesSoak({ gets: GETS, rewrites: REWRITES, schedule: 7 });
    expect(report.gets).toEqual({ sdk: GETS, http: GETS });
    expect(report.failures).toEqual([]);
    expect(report.foreign).toEqual([]);
    expect(report.backwards).toEqual([]);
    // Every kind of edit happened, and the registry moved while the gets ran (more versions than prompts served).
    expect(Object.values(report.edits).reduce((a, b) => a + b)).toBe(REWRITES);
    expect(Object.values(report.edits).every((n) => n > 0)).toBe(true);
    expect(report.servedVersions).toBeGreaterThan(5);
    expect(report.end.registry).toEqual(report.end.expected);
    const ok = Object.keys(report.end.expected).map((name) => `${name} ok`);
    expect(report.end.sdk).toEqual(ok);
    expect(report.end.http).toEqual(ok);
    // A broken edit of every file on top of it keeps serving the last good state, with a diagnostic for each file.
    expect(report.afterBreaking).toEqual({
      registry: report.end.expected,
      sdk: ok,
      http: ok,
      diagnosed: ['atomic.json', 'in-place.yaml', 'notes.md', 'map-one.json', 'map-two.yaml'],
    });
  });
});
