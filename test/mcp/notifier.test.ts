/**
 * The list_changed coalescer on its own, on a fake clock: a trailing debounce (each change restarts the quiet
 * period) capped so that a steady stream of changes still notifies.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_WAIT_FACTOR, createListChangedNotifier } from '../../src/mcp/notifier.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function recorder(ready: () => boolean = () => true) {
  const sentAt: number[] = [];
  const start = Date.now();
  return {
    sentAt,
    notifier: (quietMs: number) => createListChangedNotifier(() => sentAt.push(Date.now() - start), ready, quietMs),
  };
}

describe('list_changed notifier', () => {
  it('sends one notification for six changes 20 ms apart with a 50 ms quiet period, 50 ms after the last', async () => {
    const { sentAt, notifier } = recorder();
    const n = notifier(50);
    for (let i = 0; i < 6; i++) {
      n.trigger();
      await vi.advanceTimersByTimeAsync(20);
    }
    // The last change was at t=100; nothing yet at t=120.
    expect(sentAt).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(sentAt).toEqual([150]);
  });

  it('sends one notification per burst when bursts are further apart than the quiet period', async () => {
    const { sentAt, notifier } = recorder();
    const n = notifier(50);
    n.trigger();
    n.trigger();
    await vi.advanceTimersByTimeAsync(100);
    n.trigger();
    await vi.advanceTimersByTimeAsync(10);
    n.trigger();
    await vi.advanceTimersByTimeAsync(100);
    expect(sentAt).toEqual([50, 160]);
  });

  it(`still notifies during a steady stream of changes, once every ${MAX_WAIT_FACTOR} quiet periods`, async () => {
    const { sentAt, notifier } = recorder();
    const n = notifier(50);
    // A change every 20 ms for 1.2 s: the quiet period never ends.
    for (let t = 0; t < 1200; t += 20) {
      n.trigger();
      await vi.advanceTimersByTimeAsync(20);
    }
    expect(sentAt).toEqual([500, 1000]);
    await vi.advanceTimersByTimeAsync(100);
    // And the changes after the last capped notification get their own, once the stream stops.
    expect(sentAt).toEqual([500, 1000, 1230]);
  });

  it('neither schedules nor sends while not ready, and drops a pending notification that is no longer ready', async () => {
    let ready = false;
    const { sentAt, notifier } = recorder(() => ready);
    const n = notifier(10);
    n.trigger();
    ready = true;
    await vi.advanceTimersByTimeAsync(50);
    expect(sentAt).toEqual([]); // the change came while not ready: nothing was scheduled
    n.trigger();
    ready = false;
    await vi.advanceTimersByTimeAsync(50);
    expect(sentAt).toEqual([]);
    ready = true;
    n.trigger();
    await vi.advanceTimersByTimeAsync(50);
    expect(sentAt).toEqual([110]); // the change at t=100, plus the 10 ms quiet period
  });

  it('cancel() drops a pending notification', async () => {
    const { sentAt, notifier } = recorder();
    const n = notifier(10);
    n.trigger();
    n.cancel();
    await vi.advanceTimersByTimeAsync(100);
    expect(sentAt).toEqual([]);
  });

  it('with a 0 ms quiet period, sends once per synchronous burst', async () => {
    const { sentAt, notifier } = recorder();
    const n = notifier(0);
    n.trigger();
    n.trigger();
    n.trigger();
    await vi.advanceTimersByTimeAsync(5);
    expect(sentAt).toEqual([0]);
  });
});
