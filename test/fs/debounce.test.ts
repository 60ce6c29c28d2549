/**
 * The fixed-window job behind the watchers, on its own: a change that arrives while the job runs is never lost (one
 * more run follows), whatever the timing, because the test holds the run open itself; and the delay options that set
 * its window.
 */
import { describe, expect, it } from 'vitest';
import { WindowedJob } from '../../src/fs/debounce.js';
import { createDirectoryPromptStore, watchPromptDirectory } from '../../src/fs/index.js';
import { PromptRegistry } from '../../src/index.js';
import { waitFor } from './temp.js';

/**
 * Resolves after any timer a trigger could have set for the 0 ms window (Node runs timers in the order they fall due).
 */
const afterZeroWindow = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

/** A job whose runs the test finishes by hand. */
function heldJob() {
  const finishes: (() => void)[] = [];
  let runs = 0;
  const job = new WindowedJob(0, () => {
    runs++;
    return new Promise<void>((resolve) => finishes.push(resolve));
  });
  return { job, finishes, runs: () => runs };
}

describe('WindowedJob', () => {
  it('runs once for triggers within one window', async () => {
    const { job, finishes, runs } = heldJob();
    job.trigger();
    job.trigger();
    job.trigger();
    await waitFor(() => runs() === 1, 30_000, 'the run');
    finishes[0]!();
    await job.close();
    expect(runs()).toBe(1);
  });

  it('runs once more for a change that arrives during a run, after that run ends', async () => {
    const { job, finishes, runs } = heldJob();
    job.trigger();
    await waitFor(() => runs() === 1, 30_000, 'the first run');
    // Changes while the job runs (a reload in progress): they must not start a second run beside it...
    job.trigger();
    job.trigger();
    await afterZeroWindow();
    expect(runs()).toBe(1);
    // ...but must be run for once it ends: exactly one more run.
    finishes[0]!();
    await waitFor(() => runs() === 2, 30_000, 'the run for the change during the first');
    finishes[1]!();
    await job.close();
    expect(runs()).toBe(2);
  });

  it('starts no run after close(), and close() waits for the run in progress', async () => {
    const { job, finishes, runs } = heldJob();
    job.trigger();
    await waitFor(() => runs() === 1, 30_000, 'the run');
    job.trigger(); // would run again after this one
    let closed = false;
    const closing = job.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    finishes[0]!();
    await closing;
    job.trigger();
    await afterZeroWindow();
    expect(runs()).toBe(1);
  });

  it('drops a pending window on close()', async () => {
    let runs = 0;
    const job = new WindowedJob(60_000, async () => void runs++);
    job.trigger();
    await job.close();
    expect(runs).toBe(0);
  });
});

describe('delay options of the directory watchers', () => {
  it('take 0 to 2^31 - 1 milliseconds and refuse anything else with a RangeError naming the function and option', () => {
    const registry = new PromptRegistry();
    for (const bad of [-1, 2 ** 31, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number]) {
      const shown = typeof bad === 'string' ? '"5"' : String(bad);
      const range = `must be a number of milliseconds from 0 to ${2 ** 31 - 1}, got ${shown}`;
      expect(() => watchPromptDirectory('missing', registry, { debounceMs: bad })).toThrow(
        new RangeError(`watchPromptDirectory: debounceMs ${range}`),
      );
      expect(() => watchPromptDirectory('missing', registry, { pollIntervalMs: bad })).toThrow(
        new RangeError(`watchPromptDirectory: pollIntervalMs ${range}`),
      );
      expect(() => createDirectoryPromptStore('missing', { debounceMs: bad })).toThrow(
        new RangeError(`createDirectoryPromptStore: debounceMs ${range}`),
      );
    }
  });
});
