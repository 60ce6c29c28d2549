/**
 * Change signals for a tree from fs.watch (per directory, plus the root's parent); callers rescan to learn what
 * changed.
 */
import { statSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** @internal Watches a set of directories; calls `onEvent` for anything that happens in them. */
export class TreeWatcher {
  readonly #watchers = new Map<string, { watcher: FSWatcher; id: string }>();
  readonly #root: string;
  readonly #onEvent: () => void;
  readonly #watch: typeof watch;
  #parent: FSWatcher | undefined;
  #closed = false;

  /** `watchFs` is fs.watch; tests pass it through to reach the watchers it makes (to deliver an OS error). */
  constructor(root: string, onEvent: () => void, watchFs: typeof watch = watch) {
    this.#root = resolve(root);
    this.#onEvent = onEvent;
    this.#watch = watchFs;
    this.#watchParent();
  }

  /** Watches exactly these directories (as given by a scan) from now on. */
  sync(dirs: readonly string[]): void {
    if (this.#closed) return;
    // A directory is known by path AND identity: one deleted and re-created under the same path needs a new watcher.
    const wanted = new Map<string, string>();
    for (const d of dirs) {
      const id = identity(d);
      if (id !== undefined) wanted.set(resolve(d), id);
    }
    for (const [dir, entry] of this.#watchers) {
      if (wanted.get(dir) !== entry.id) {
        entry.watcher.close();
        this.#watchers.delete(dir);
      }
    }
    for (const [dir, id] of wanted) if (!this.#watchers.has(dir)) this.#add(dir, id);
  }

  close(): void {
    this.#closed = true;
    for (const entry of this.#watchers.values()) entry.watcher.close();
    this.#watchers.clear();
    this.#parent?.close();
    this.#parent = undefined;
  }

  #add(dir: string, id: string): void {
    let watcher: FSWatcher;
    try {
      watcher = this.#watch(dir, () => this.#onEvent());
    } catch {
      this.#onEvent(); // it vanished meanwhile: the rescan will see that
      return;
    }
    watcher.on('error', () => {
      // The directory was deleted (or became unreadable): drop this watcher; the rescan re-adds what exists.
      watcher.close();
      if (this.#watchers.get(dir)?.watcher === watcher) this.#watchers.delete(dir);
      this.#onEvent();
    });
    this.#watchers.set(dir, { watcher, id });
  }

  #watchParent(): void {
    const name = basename(this.#root);
    try {
      this.#parent = this.#watch(dirname(this.#root), (_event, file) => {
        if (file === null || file === name || file.toString() === name) this.#onEvent();
      });
      this.#parent.on('error', () => {
        this.#parent?.close();
        this.#parent = undefined;
      });
    } catch {
      this.#parent = undefined; // the parent cannot be watched (e.g. the root is '/'): deletion of the root goes unseen
    }
  }
}

/** A directory's identity (device and inode, following symlinks), or undefined when it is gone. */
function identity(dir: string): string | undefined {
  try {
    const stats = statSync(dir);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}
