/** A fixed-window job runner: the first trigger opens a window, the job runs once at its end. */

/** @internal Runs `job` at most once per window. */
export class WindowedJob {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(
    readonly windowMs: number,
    readonly job: () => Promise<void>,
  ) {}

  trigger(): void {
    if (this.#closed) return;
    if (this.#running !== undefined) {
      this.#again = true;
      return;
    }
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => this.#run(), this.windowMs);
  }

  #run(): void {
    this.#timer = undefined;
    this.#again = false;
    this.#running = this.job().finally(() => {
      this.#running = undefined;
      if (this.#again) this.trigger();
    });
  }

  /** Stops: no further runs; waits for a run in progress. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => {});
  }
}
