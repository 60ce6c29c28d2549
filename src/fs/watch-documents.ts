/** Watching a resolver's roots: rescanned once per window; changed documents drop its cache and are reported by URI. */
import { WindowedJob } from './debounce.js';
import { documentUri, setIndexWatched } from './resolver.js';
import type { FileResourceResolver } from './resolver.js';
import { fingerprint, scanTree } from './scan.js';
import { TreeWatcher } from './tree-watcher.js';

/** @internal Watches every root of a resolver. */
export class DocumentWatcher {
  readonly #versions = new Map<string, string>();
  readonly #trees = new Map<string, TreeWatcher>();
  readonly #job: WindowedJob;
  #baseline = false;

  constructor(
    readonly resolver: FileResourceResolver,
    windowMs: number,
    readonly onChanged: (uris: string[]) => void,
    onError: (error: unknown) => void,
  ) {
    this.#job = new WindowedJob(windowMs, () => this.rescan().catch(onError));
    setIndexWatched(resolver, true);
    for (const root of new Set(Object.values(resolver.roots))) {
      this.#trees.set(root, new TreeWatcher(root, () => this.#job.trigger()));
    }
  }

  trigger(): void {
    this.#job.trigger();
  }

  /** Rescans every root; the first call records the versions without reporting them. */
  async rescan(): Promise<void> {
    const changed: string[] = [];
    const seen = new Set<string>();
    for (const [scheme, root] of Object.entries(this.resolver.roots)) {
      let scan;
      try {
        scan = await scanTree(root, { acceptFile: () => true });
      } catch {
        scan = { files: [], dirs: [] };
      }
      this.#trees.get(root)?.sync(scan.dirs);
      for (const f of scan.files) {
        const key = documentUri(scheme, f.rel);
        seen.add(key);
        const version = fingerprint(f.stats);
        if (this.#versions.get(key) === version) continue;
        this.#versions.set(key, version);
        if (this.#baseline) changed.push(key);
      }
    }
    for (const key of [...this.#versions.keys()]) {
      if (seen.has(key)) continue;
      this.#versions.delete(key);
      changed.push(key);
    }
    this.#baseline = true;
    if (changed.length === 0) return;
    this.resolver.invalidate();
    this.onChanged(changed.sort());
  }

  async close(): Promise<void> {
    setIndexWatched(this.resolver, false);
    for (const tree of this.#trees.values()) tree.close();
    await this.#job.close();
  }
}
