/**
 * The in-memory {@link PromptStore}: one version per prompt, no labels (every label serves it). For tests and for
 * servers that build their prompts at start-up.
 *
 * @module
 */
import type { TemplatePromptDefinition } from '../definition/types.js';
import type { PromptStore, StoreChangeEvent, StoredPrompt } from './contract.js';
import { compareNames, copyStored, storageCheck } from './definition.js';

/**
 * Creates an in-memory {@link PromptStore}. `put` validates the definition and bumps the prompt's version; watchers
 * are called synchronously after each change (a throwing watcher does not stop the others).
 *
 * @example
 * ```ts
 * const store = createMemoryPromptStore([{ name: 'greet', messages: [{ role: 'user', content: 'Hi' }] }]);
 * const registry = new PromptRegistry();
 * const sync = await syncRegistry(store, registry);
 * await store.put({ name: 'bye', messages: [{ role: 'user', content: 'Bye' }] });
 * sync.close();
 * ```
 */
export function createMemoryPromptStore(initial: readonly TemplatePromptDefinition[] = []): PromptStore {
  const entries = new Map<string, StoredPrompt>();
  const compilableDefinition = storageCheck();
  /** Bumped by every change: what `revisions` reports as the fingerprint. */
  let revision = 0;
  const watchers = new Set<(event: StoreChangeEvent) => void>();
  const emit = (event: StoreChangeEvent): void => {
    for (const watcher of [...watchers]) {
      try {
        watcher(event);
      } catch {
        /* one watcher's fault must not hide the change from the others */
      }
    }
  };
  const write = (input: TemplatePromptDefinition): StoredPrompt => {
    const definition = compilableDefinition(input);
    const version = (entries.get(definition.name)?.version ?? 0) + 1;
    const entry = { name: definition.name, version, definition };
    entries.set(entry.name, entry);
    revision++;
    return entry;
  };
  for (const definition of initial) write(definition);

  return {
    // Every write goes through this object, and watchers hear of it in the same call.
    changeDelayMs: 0,
    async get(name) {
      const entry = entries.get(name);
      return entry === undefined ? undefined : copyStored(entry);
    },
    async list() {
      return [...entries.values()].sort(compareNames).map(copyStored);
    },
    async revisions(options = {}) {
      const fingerprint = String(revision);
      if (options.since === fingerprint) return { fingerprint };
      return {
        fingerprint,
        entries: [...entries.values()].sort(compareNames).map((e) => ({ name: e.name, version: e.version })),
      };
    },
    async put(definition) {
      const entry = write(definition);
      emit({ type: 'put', name: entry.name, version: entry.version });
      return copyStored(entry);
    },
    async delete(name) {
      if (!entries.delete(name)) return false;
      revision++;
      emit({ type: 'delete', name });
      return true;
    },
    watch(callback) {
      const watcher = (event: StoreChangeEvent): void => callback(event);
      watchers.add(watcher);
      return () => {
        watchers.delete(watcher);
      };
    },
  };
}
