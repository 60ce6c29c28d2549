/**
 * The pattern work one validation may do, a bound on the linear-time engine's work however it matches: each pattern
 * check charges the characters it reads times the pattern's RE2 program size (docs/arguments.md).
 *
 * @module
 */

/** Pattern work past a request's {@link PatternBudget}. */
export class PatternWorkExceeded extends Error {}

/**
 * The pattern work one validation may do: characters checked × the pattern's RE2 program size, a bound on the
 * engine's work whichever way it matches (docs/arguments.md). Unlimited outside {@link PatternBudget.run}.
 */
export class PatternBudget {
  #remaining = Number.POSITIVE_INFINITY;

  /** Runs `validate` with `max` units of pattern work; a pattern check past them throws {@link PatternWorkExceeded}. */
  run<T>(max: number, validate: () => T): T {
    this.#remaining = max;
    try {
      return validate();
    } finally {
      this.#remaining = Number.POSITIVE_INFINITY;
    }
  }

  /** Runs `task` without a bound; returns its result and the pattern work it took. */
  measure<T>(task: () => T): { value: T; work: number } {
    const start = Number.MAX_SAFE_INTEGER;
    this.#remaining = start;
    try {
      const value = task();
      return { value, work: start - this.#remaining };
    } finally {
      this.#remaining = Number.POSITIVE_INFINITY;
    }
  }

  charge(units: number): void {
    if ((this.#remaining -= units) < 0) throw new PatternWorkExceeded();
  }
}
