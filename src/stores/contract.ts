/**
 * The `PromptStore` interface: where prompt definitions live outside the process (memory, a directory, a database),
 * and what {@link syncRegistry} needs to keep a registry in step with one.
 *
 * @module
 */
import type { TemplatePromptDefinition } from '../definition/types.js';

/** One version of a stored prompt, as a store serves it. */
export interface StoredPrompt {
  /** The prompt's name (the store's key). */
  name: string;
  /** The version served: a positive integer, per name. A store without history reports one version per prompt. */
  version: number;
  /** The definition: JSON data only (template prompts; render functions cannot be stored). */
  definition: TemplatePromptDefinition;
}

/** Options of {@link PromptStore.get} and {@link PromptStore.list}. */
export interface StoreReadOptions {
  /**
   * Which version to read: a label such as `production` (a store's default) or `latest` (always the newest).
   * A store without labels serves its only version under every label.
   */
  label?: string;
  /**
   * `list` only: called for each entry left out because it is invalid (its name and why), so a reader can withhold it.
   */
  onInvalid?: (name: string, reason: string) => void;
}

/** Options of {@link PromptStore.revisions}. */
export interface StoreRevisionsOptions {
  /** Which label's entries (as for `list`). */
  label?: string;
  /** The fingerprint a reader already has: when the store still serves exactly that, `entries` is left out. */
  since?: string;
}

/** What a label serves, as names and versions only: a cheap check that a reader is up to date. */
export interface StoreRevisions {
  /**
   * Identifies what the label serves: equal fingerprints mean the same names at the same versions. Opaque; compare
   * for equality only.
   */
  fingerprint: string;
  /**
   * Every name the label serves (invalid entries included) and its version, read at the same instant as the
   * fingerprint; absent when the fingerprint equals `since`.
   */
  entries?: { name: string; version: number }[];
}

/**
 * A change seen by a store's watcher: a prompt was written or deleted (by this process or another writer), or
 * `reset`: the watcher may have missed changes (a lost connection, an overflowing file watcher) and the reader should
 * load everything again.
 */
export type StoreChangeEvent =
  | { type: 'put'; name: string; version?: number; label?: string }
  | { type: 'delete'; name: string; label?: string }
  | { type: 'reset' };

/**
 * Persistent prompt definitions. Every implementation passes the same contract test suite: `get` and `list` serve
 * only valid definitions (an invalid stored entry is left out of `list`, and `get` throws an `INTERNAL_ERROR`
 * PromptError, logging which entry and why), `put` validates before it writes, and `watch` reports changes made
 * through any writer.
 *
 * @example
 * ```ts
 * const store: PromptStore = createMemoryPromptStore();
 * await store.put({ name: 'greet', messages: [{ role: 'user', content: 'Hello {{who}}' }] });
 * const unwatch = store.watch((event) => console.log(event.type));
 * (await store.get('greet'))?.version; // 1
 * unwatch();
 * ```
 */
export interface PromptStore {
  /** The prompt's served version, or undefined when there is none. Throws INTERNAL_ERROR for an invalid entry. */
  get(name: string, options?: StoreReadOptions): Promise<StoredPrompt | undefined>;
  /** Every valid prompt, sorted by name (code-unit order). */
  list(options?: StoreReadOptions): Promise<StoredPrompt[]>;
  /** Validates and writes a definition (a new version where the store keeps history); returns what was stored. */
  put(definition: TemplatePromptDefinition): Promise<StoredPrompt>;
  /** Deletes a prompt; returns whether there was one. */
  delete(name: string): Promise<boolean>;
  /** Subscribes to changes; returns the function that unsubscribes. */
  watch(callback: (event: StoreChangeEvent) => void): () => void;
  /**
   * The longest time, in milliseconds, between a change by any writer and its `watch` event while the store answers
   * (absent: unknown). {@link syncRegistry} passes it on, so that `attachPrompts` claims no longer a cache lifetime.
   */
  readonly changeDelayMs?: number;
  /**
   * Optional: the names and versions a label serves, with a fingerprint (one cheap read, no definitions), so that
   * {@link syncRegistry} can check periodically that nothing was missed and read again only what differs.
   */
  revisions?(options?: StoreRevisionsOptions): Promise<StoreRevisions>;
  /** Optional: whether the change feed is connected now (false while a lost connection is re-established). */
  isListening?(): boolean;
}
