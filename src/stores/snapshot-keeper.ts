/**
 * The last-known-good snapshot of a {@link syncRegistry}: saved after changes read from the store, at most once per
 * interval (the changes in between saved together), and read back when the store cannot be read at start.
 *
 * @module
 */
import { errorClassName } from '../errors.js';
import type { SafeLogger } from '../logger.js';
import type { StoredPrompt } from './contract.js';
import { decodeSnapshot, encodeSnapshot } from './snapshot.js';
import type { RegistrySnapshotStorage } from './snapshot.js';

/** @internal What a keeper needs of its sync: the label, the save interval, the logger and what the sync serves. */
export interface SnapshotKeeperOptions {
  label: string | null;
  intervalMs: number;
  log: SafeLogger;
  served: ReadonlyMap<string, StoredPrompt>;
}

/** @internal Saves and loads one sync's snapshot. */
export class SnapshotKeeper {
  /** When the snapshot was last saved (null: never). */
  savedAt: number | null = null;
  #dirty = false;
  #saving = false;
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastSave = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly storage: RegistrySnapshotStorage,
    private readonly options: SnapshotKeeperOptions,
  ) {}

  /** What the sync serves changed (after a read from the store): save it, at most once per interval. */
  changed(): void {
    this.#dirty = true;
    this.#schedule();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The snapshot's prompts, or undefined (logged) when there is none or it cannot be used. */
  async load(): Promise<StoredPrompt[] | undefined> {
    const { log, label } = this.options;
    let text: string | undefined;
    try {
      text = await this.storage.load();
    } catch (error) {
      log.warn(
        {
          event: 'prompt_snapshot_unusable',
          snapshot: this.storage.describe,
          reason: error instanceof Error ? error.message : errorClassName(error),
        },
        'registry snapshot cannot be read; ignored',
      );
      return undefined;
    }
    if (text === undefined) return undefined;
    const reading = await decodeSnapshot(text, label);
    if (!reading.ok) {
      log.warn(
        { event: 'prompt_snapshot_unusable', snapshot: this.storage.describe, reason: reading.reason },
        'registry snapshot is unusable; ignored',
      );
      return undefined;
    }
    return reading.snapshot.prompts;
  }

  #schedule(): void {
    if (this.#closed || this.#saving || this.#timer !== undefined || !this.#dirty) return;
    const wait = Math.max(0, this.#lastSave + this.options.intervalMs - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#save();
    }, wait);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  async #save(): Promise<void> {
    if (!this.#dirty || this.#closed) return;
    const { log, label, served } = this.options;
    this.#dirty = false;
    this.#saving = true;
    const prompts = [...served.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    try {
      await this.storage.save(await encodeSnapshot(label, prompts, new Date()));
      this.savedAt = Date.now();
      log.debug(
        { event: 'prompt_snapshot_saved', snapshot: this.storage.describe, prompts: prompts.length },
        'registry snapshot saved',
      );
    } catch (error) {
      this.#dirty = true;
      log.warn(
        { event: 'prompt_snapshot_save_failed', snapshot: this.storage.describe, error: errorClassName(error) },
        'registry snapshot could not be saved; the previous one stays',
      );
    } finally {
      this.#saving = false;
      this.#lastSave = Date.now();
      this.#schedule();
    }
  }
}
