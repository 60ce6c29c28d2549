/** Whether a changed file has stopped changing: a writer working in place must not have its half-written file read. */
import type { Stats } from 'node:fs';
import { fingerprint } from './scan.js';

/**
 * @internal A file is settled when its last change is a window old, or the same version has been seen for a whole
 * window (however often it is asked about in between: a reader may look more often than once a window).
 */
export class SettleCheck {
  /** Files seen changing, by relative path: the version seen then, and when it was first seen. */
  readonly #pending = new Map<string, { version: string; since: number }>();

  constructor(readonly windowMs: number) {}

  /** Whether the file at this version may be read now; if not, it is remembered and asked about again next window. */
  isSettled(rel: string, stats: Stats): boolean {
    const version = fingerprint(stats);
    const now = Date.now();
    const seen = this.#pending.get(rel);
    if ((seen?.version === version && now - seen.since >= this.windowMs) || now - stats.mtimeMs >= this.windowMs) {
      this.#pending.delete(rel);
      return true;
    }
    // Changed within the last window (or a clock ahead of ours): wait until this version is a window old and look
    // again.
    if (seen?.version !== version) this.#pending.set(rel, { version, since: now });
    return false;
  }

  /** The file changed while it was read: look again next window. */
  unsettle(rel: string): void {
    this.#pending.set(rel, { version: '', since: Date.now() });
  }

  /** Whether some file waits for another look. */
  get waiting(): boolean {
    return this.#pending.size > 0;
  }

  /** Forgets files that no longer changed (or are gone) since the last scan. */
  keepOnly(changed: ReadonlySet<string>): void {
    for (const rel of [...this.#pending.keys()]) if (!changed.has(rel)) this.#pending.delete(rel);
  }
}
