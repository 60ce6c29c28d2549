/**
 * Coalesces bursts of registry changes into one `notifications/prompts/list_changed`.
 *
 * @module
 */
import { DELAY_MS, MAX_TIMER_MS, integerOption } from '../options.js';

/** Default quiet period, in milliseconds, after the last registry change before one notification goes out. */
export const DEFAULT_DEBOUNCE_MS = 50;

/** A steady stream of changes still notifies at least once every `MAX_WAIT_FACTOR` quiet periods. */
export const MAX_WAIT_FACTOR = 10;

/** @internal A burst coalescer. */
export interface ListChangedNotifier {
  /** A change happened: (re)start the quiet period; one notification goes out when it ends. */
  trigger(): void;
  /** Drops a pending notification. */
  cancel(): void;
}

/** A trailing debouncer of list_changed (also sent once a burst is 10 × quietMs old), silent while not ready. */
export function createListChangedNotifier(
  send: () => void,
  isReady: () => boolean,
  quietMs: number,
): ListChangedNotifier {
  const maxWaitMs = announceDelayMs(quietMs);
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest change not yet announced happened (undefined: nothing pending). */
  let firstChangeAt: number | undefined;

  const clear = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    firstChangeAt = undefined;
  };
  const fire = (): void => {
    clear();
    if (isReady()) send();
  };

  return {
    trigger() {
      if (!isReady()) return;
      const now = Date.now();
      firstChangeAt ??= now;
      if (timer !== undefined) clearTimeout(timer);
      const untilMaxWait = firstChangeAt + maxWaitMs - now;
      timer = setTimeout(fire, Math.max(0, Math.min(quietMs, untilMaxWait)));
      // A pending notification must not keep a process alive on its own.
      (timer as { unref?: () => void }).unref?.();
    },
    cancel: clear,
  };
}

/** The longest a change waits for its notification with this quiet period: one burst's maximum wait. */
export function announceDelayMs(quietMs: number): number {
  return Math.min(quietMs * MAX_WAIT_FACTOR, MAX_TIMER_MS);
}

/** A debounce option: milliseconds from 0 to 2^31 - 1 (the largest `setTimeout` delay); 50 when absent. */
export function checkDebounceMs(value: unknown): number {
  return integerOption('attachPrompts', 'debounceMs', value, { ...DELAY_MS, default: DEFAULT_DEBOUNCE_MS });
}
