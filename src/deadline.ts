/**
 * Waiting for user code on a request's path (render functions, completers, adapter callbacks): until it settles,
 * the request's signal aborts, or its time is up — never forever.
 *
 * @module
 * @internal
 */

/** How long {@link runWithDeadline} waits, and the errors it rejects with when it stops waiting. */
export interface Deadline {
  /** The request's signal: waiting stops when it aborts. */
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs: number;
  /** The error for a task that took longer than `timeoutMs`. */
  readonly timedOut: () => unknown;
  /** The error for a request cancelled while waiting. */
  readonly cancelled: () => unknown;
}

/**
 * Runs `task` with a signal that aborts when waiting stops (cancelled or timed out), and settles with the task or
 * with the deadline's error, whichever comes first. A task settling after that is ignored.
 */
export function runWithDeadline<T>(task: (signal: AbortSignal) => T | PromiseLike<T>, deadline: Deadline): Promise<T> {
  const outer = deadline.signal;
  if (outer?.aborted === true) return Promise.reject(deadline.cancelled());
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
      return true;
    };
    const stop = (error: unknown): void => {
      if (!finish()) return;
      controller.abort(error);
      reject(error);
    };
    const onAbort = (): void => stop(deadline.cancelled());
    outer?.addEventListener('abort', onAbort, { once: true });
    if (Number.isFinite(deadline.timeoutMs)) timer = setTimeout(() => stop(deadline.timedOut()), deadline.timeoutMs);
    let value: T | PromiseLike<T>;
    try {
      value = task(controller.signal);
    } catch (error) {
      if (finish()) reject(error);
      return;
    }
    Promise.resolve(value).then(
      (result) => {
        if (finish()) resolve(result);
      },
      (error: unknown) => {
        if (finish()) reject(error);
      },
    );
  });
}
