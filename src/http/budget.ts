/** The server-wide budget of request body bytes in flight: 503 with Retry-After once it is spent. */
import { PromptError } from '../errors.js';

/** @internal Bytes of request bodies held by the requests of one handler, counted as they arrive. */
export class BodyBudget {
  #used = 0;

  constructor(
    readonly limit: number,
    /** Seconds a refused client is told to wait (Retry-After): the longest a body may take to arrive. */
    readonly retryAfterSeconds: number,
  ) {}

  /** A request's share: grown chunk by chunk, given back once when the request is answered. */
  lease(): BodyLease {
    return new BodyLease(
      (bytes) => {
        if (this.#used + bytes > this.limit) throw serverBusy(this.limit);
        this.#used += bytes;
      },
      (bytes) => {
        this.#used -= bytes;
      },
    );
  }
}

/** @internal One request's bytes in a {@link BodyBudget}. */
export class BodyLease {
  #held = 0;

  constructor(
    private readonly take: (bytes: number) => void,
    private readonly give: (bytes: number) => void,
  ) {}

  /** Grows the hold to `total` bytes; SERVER_BUSY (503) when the budget cannot give them (nothing is taken then). */
  hold(total: number): void {
    if (total <= this.#held) return;
    this.take(total - this.#held);
    this.#held = total;
  }

  /** Gives every held byte back (again: nothing). */
  release(): void {
    this.give(this.#held);
    this.#held = 0;
  }
}

/** @internal 503 when the bodies in flight would pass `limit` bytes. */
export function serverBusy(limit: number): PromptError {
  return new PromptError(
    'SERVER_BUSY',
    `Server busy: request bodies in flight would exceed ${limit} bytes; retry later`,
  );
}
