/**
 * Waiting for code outside the library on a request's path (render functions, resolvers, asset loaders, completers,
 * adapter callbacks): until it settles, the request's signal aborts, or its time is up — never forever.
 *
 * @module
 * @internal
 */
import { PromptError } from './errors.js';
import type { ResourceReadContext } from './resources.js';

/** Why waiting stopped: the request was cancelled, the time ran out, or the work already failed elsewhere. */
export type DeadlineStop =
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'failed'; readonly error: unknown };

/** One request's wait: `signal` aborts when waiting stops, `wait()` each answer, `end()` once the work settles. */
export class DeadlineScope {
  /** Give this to the code waited on: it aborts when waiting stops. */
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly #controller = new AbortController();
  readonly #abortReason: (stop: DeadlineStop) => unknown;
  #stop: DeadlineStop | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #unlink: (() => void) | undefined;

  constructor(
    outer: AbortSignal | undefined,
    timeoutMs: number,
    abortReason: (stop: DeadlineStop) => unknown = stoppedError,
  ) {
    this.signal = this.#controller.signal;
    this.timeoutMs = timeoutMs;
    this.#abortReason = abortReason;
    if (outer?.aborted === true) {
      this.#halt({ kind: 'cancelled' });
      return;
    }
    if (outer !== undefined) {
      const onAbort = (): void => this.#halt({ kind: 'cancelled' });
      outer.addEventListener('abort', onAbort, { once: true });
      this.#unlink = () => outer.removeEventListener('abort', onAbort);
    }
    if (Number.isFinite(timeoutMs)) this.#timer = setTimeout(() => this.#halt({ kind: 'timeout' }), timeoutMs);
  }

  /** Why waiting stopped, or undefined while it goes on. */
  get stop(): DeadlineStop | undefined {
    return this.#stop;
  }

  /** Waits for `value`; when waiting stops first, rejects with `failure(stop)` (a later answer is ignored). */
  wait<T>(value: T | PromiseLike<T>, failure: (stop: DeadlineStop) => unknown): Promise<T> {
    if (!isThenable(value)) return Promise.resolve(value);
    if (this.#stop !== undefined) return Promise.reject(failure(this.#stop));
    const signal = this.signal;
    return new Promise<T>((resolve, reject) => {
      const onStop = (): void => reject(failure(this.#stop as DeadlineStop));
      signal.addEventListener('abort', onStop, { once: true });
      Promise.resolve(value).then(
        (result) => {
          signal.removeEventListener('abort', onStop);
          resolve(result);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onStop);
          reject(error);
        },
      );
    });
  }

  /** Stops waiting because the work failed: pending waits reject with that error. */
  fail(error: unknown): void {
    this.#halt({ kind: 'failed', error });
  }

  /** Releases the timer and the link to the request's signal (the work settled). */
  end(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#unlink?.();
    this.#unlink = undefined;
  }

  #halt(stop: DeadlineStop): void {
    if (this.#stop !== undefined) return;
    this.#stop = stop;
    this.end();
    this.#controller.abort(this.#abortReason(stop));
  }
}

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
 * Runs `task` with a signal aborted on cancel or timeout; settles with the task or the deadline's error, first wins.
 */
export function runWithDeadline<T>(task: (signal: AbortSignal) => T | PromiseLike<T>, deadline: Deadline): Promise<T> {
  const failure = (stop: DeadlineStop): unknown =>
    stop.kind === 'timeout' ? deadline.timedOut() : stop.kind === 'cancelled' ? deadline.cancelled() : stop.error;
  const scope = new DeadlineScope(deadline.signal, deadline.timeoutMs, failure);
  if (scope.stop !== undefined) return Promise.reject(failure(scope.stop));
  let value: T | PromiseLike<T>;
  try {
    value = task(scope.signal);
  } catch (error) {
    scope.end();
    return Promise.reject(error);
  }
  const result = scope.wait(value, failure);
  result.then(
    () => scope.end(),
    () => scope.end(),
  );
  return result;
}

/** @internal One render's wait for resources and assets, whose failures name what was being read. */
export class ResourceDeadline extends DeadlineScope {
  /** The read context to give resolvers and loaders: its signal aborts when waiting stops. */
  readonly context: ResourceReadContext;

  constructor(context: ResourceReadContext, timeoutMs: number) {
    super(context.signal, timeoutMs);
    this.context = { promptName: context.promptName, signal: this.signal };
  }

  /**
   * Waits for a resolver's or loader's answer; when waiting stops first, rejects with INTERNAL_ERROR naming `label`
   * (a URI as written in the template, never a rendered one), or with the error that stopped the render.
   */
  read<T>(value: T | PromiseLike<T>, label: string): Promise<T> {
    return this.wait(value, (stop) => {
      if (stop.kind === 'failed') return stop.error;
      if (stop.kind === 'timeout') {
        return new PromptError(
          'INTERNAL_ERROR',
          `Reading ${label} took longer than the ${this.timeoutMs} ms resource timeout`,
          {
            data: { limit: 'resourceTimeoutMs', max: this.timeoutMs },
          },
        );
      }
      return new PromptError('INTERNAL_ERROR', `Request cancelled while reading ${label}`);
    });
  }
}

function stoppedError(stop: DeadlineStop): unknown {
  return stop.kind === 'failed' ? stop.error : new Error(stop.kind === 'timeout' ? 'timed out' : 'cancelled');
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
