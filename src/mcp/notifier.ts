/**
 * Coalesces bursts of registry changes into one `notifications/prompts/list_changed`.
 *
 * @module
 */

/** Default window, in milliseconds, during which registry changes are coalesced into one notification. */
export const DEFAULT_DEBOUNCE_MS = 50;

/** @internal A burst coalescer. */
export interface ListChangedNotifier {
  /** A change happened: send one notification at the end of the current window (opening one if needed). */
  trigger(): void;
  /** Drops a pending notification. */
  cancel(): void;
}

/**
 * Creates a notifier that sends at most one notification per window. The window opens at the first change while
 * connected and closes `windowMs` later; every change inside it is covered by that one notification, so a steady
 * stream of changes still produces a notification every `windowMs` (no starvation). Nothing is sent, or scheduled,
 * while disconnected: a client that connects later lists the prompts afresh anyway.
 *
 * @example
 * ```ts
 * const notifier = createListChangedNotifier(() => void server.sendPromptListChanged(), () => !!server.transport, 50);
 * registry.onChange(() => notifier.trigger());
 * ```
 */
export function createListChangedNotifier(
  send: () => void,
  isConnected: () => boolean,
  windowMs: number,
): ListChangedNotifier {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    trigger() {
      if (timer !== undefined || !isConnected()) return;
      timer = setTimeout(() => {
        timer = undefined;
        if (isConnected()) send();
      }, windowMs);
      // A pending notification must not keep a process alive on its own.
      (timer as { unref?: () => void }).unref?.();
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Checks a debounce window option: a finite number of milliseconds, at least 0.
 *
 * @example
 * ```ts
 * checkDebounceMs(undefined); // 50
 * ```
 */
export function checkDebounceMs(value: unknown): number {
  if (value === undefined) return DEFAULT_DEBOUNCE_MS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`attachPrompts: debounceMs must be a finite number >= 0, got ${String(value)}`);
  }
  return value;
}
