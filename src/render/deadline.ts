/**
 * How long one render waits for outside content (resolvers, asset loaders): until the request's signal aborts or the
 * render's resource time is up, never forever.
 *
 * @module
 * @internal
 */
import { PromptError } from '../errors.js';
import type { ResourceReadContext } from '../resources.js';

/** Why waiting stopped: the request was cancelled, the time ran out, or the render already failed elsewhere. */
type Stop = { kind: 'cancelled' } | { kind: 'timeout' } | { kind: 'failed'; error: unknown };

/** @internal One render's wait for resources and assets; `end()` it when the render settles. */
export class ResourceDeadline {
  /** The read context to give resolvers and loaders: its signal aborts when waiting stops. */
  readonly context: ResourceReadContext;
  readonly #controller = new AbortController();
  readonly #timeoutMs: number;
  #stop: Stop | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #unlink: (() => void) | undefined;

  constructor(context: ResourceReadContext, timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.context = { promptName: context.promptName, signal: this.#controller.signal };
    const outer = context.signal;
    if (outer !== undefined) {
      if (outer.aborted) this.#halt({ kind: 'cancelled' });
      else {
        const onAbort = (): void => this.#halt({ kind: 'cancelled' });
        outer.addEventListener('abort', onAbort, { once: true });
        this.#unlink = () => outer.removeEventListener('abort', onAbort);
      }
    }
    if (this.#stop === undefined && Number.isFinite(timeoutMs)) {
      this.#timer = setTimeout(() => this.#halt({ kind: 'timeout' }), timeoutMs);
    }
  }

  /**
   * Waits for `value` (a resolver's or loader's answer); when waiting stops first, rejects with INTERNAL_ERROR naming
   * `label` (a URI as written in the template, never a rendered one), or with the error that stopped the render.
   */
  wait<T>(value: T | PromiseLike<T>, label: string): Promise<T> {
    if (!isThenable(value)) return Promise.resolve(value);
    if (this.#stop !== undefined) return Promise.reject(this.#failure(label));
    const signal = this.#controller.signal;
    return new Promise<T>((resolve, reject) => {
      const onStop = (): void => reject(this.#failure(label));
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

  /** Stops waiting because the render failed: pending reads are aborted with that error. */
  fail(error: unknown): void {
    this.#halt({ kind: 'failed', error });
  }

  /** Releases the timer and the link to the request's signal (the render settled). */
  end(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#unlink?.();
    this.#unlink = undefined;
  }

  #halt(stop: Stop): void {
    if (this.#stop !== undefined) return;
    this.#stop = stop;
    this.end();
    this.#controller.abort(stop.kind === 'failed' ? stop.error : new Error(`resource wait stopped: ${stop.kind}`));
  }

  #failure(label: string): unknown {
    const stop = this.#stop as Stop;
    if (stop.kind === 'failed') return stop.error;
    if (stop.kind === 'timeout') {
      return new PromptError('INTERNAL_ERROR', `Reading ${label} took longer than the ${this.#timeoutMs} ms resource timeout`, {
        data: { limit: 'resourceTimeoutMs', max: this.#timeoutMs },
      });
    }
    return new PromptError('INTERNAL_ERROR', `Request cancelled while reading ${label}`);
  }
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
