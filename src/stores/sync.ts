/**
 * `syncRegistry`: keeps a {@link PromptRegistry} in step with a {@link PromptStore}.
 *
 * @module
 */
import type { TemplatePromptDefinition } from '../definition/types.js';
import { errorClassName, isPromptError } from '../errors.js';
import type { Logger } from '../logger.js';
import { DELAY_MS, integerOption } from '../options.js';
import { toSafeLogger } from '../logger.js';
import type { PromptRegistry } from '../registry/registry.js';
import { declareChangeDelay } from '../registry/change-delay.js';
import type { PromptStore, StoreChangeEvent, StoredPrompt } from './contract.js';

/** Options of {@link syncRegistry}. */
export interface SyncRegistryOptions {
  /** The label the registry follows (default: the store's default, `production` for PostgreSQL). */
  label?: string;
  /** Changes arriving within this many milliseconds are applied as one batch (default 10). */
  batchMs?: number;
  /** pino-style logger: each applied prompt (name, version, label) at info, withheld entries at warn. */
  logger?: Logger;
}

/** A running synchronisation; see {@link syncRegistry}. */
export interface RegistrySync {
  /** The label followed, as given (undefined: the store's default). */
  readonly label: string | undefined;
  /** The version of each prompt this sync put into the registry, by name. */
  readonly versions: ReadonlyMap<string, number>;
  /** Milliseconds the oldest change seen but not yet applied has waited (0 when caught up): the sync lag. */
  readonly lagMs: number;
  /** Loads everything again and applies it as one batch. */
  reload(): Promise<void>;
  /** Resolves once every change seen so far has been applied (or given up until the next reload). */
  settled(): Promise<void>;
  /** Stops following the store; the registry keeps the prompts it has. */
  close(): void;
}

const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;
/** Above this many changed names in one batch, everything is read again in one query instead. */
const MAX_NAMED_READS = 50;

/**
 * Loads every prompt of `store` into `registry`, then follows the store's changes: each burst of changes becomes one
 * `registry.set` plus at most one `registry.remove` (so one `list_changed` per burst once debounced by
 * attachPrompts). Deleted prompts, and entries that turned invalid, are removed from the registry; an entry the
 * registry refuses is withheld and logged. When the store cannot be read (a lost connection) the registry keeps
 * serving the last good set and the sync retries with backoff; a `reset` from the store reloads everything.
 * Rejects when the first load fails. Only prompts this sync added are ever removed.
 *
 * @example
 * ```ts
 * const registry = new PromptRegistry();
 * const sync = await syncRegistry(createMemoryPromptStore(), registry, { label: 'production' });
 * sync.close();
 * ```
 */
export async function syncRegistry(
  store: PromptStore,
  registry: PromptRegistry,
  options: SyncRegistryOptions = {},
): Promise<RegistrySync> {
  const label = options.label;
  const batchMs = integerOption('syncRegistry', 'batchMs', options.batchMs, { ...DELAY_MS, default: 10 });
  const log = toSafeLogger(options.logger);
  const reads = label === undefined ? {} : { label };
  const versions = new Map<string, number>();
  /** The definition (as JSON) this sync last put into the registry, by name. */
  const applied = new Map<string, string>();
  const pending = new Set<string>();
  let reloadPending = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let retryMs = RETRY_MIN_MS;
  let closed = false;
  /** When the oldest change not yet applied was seen (undefined: caught up). */
  let behindSince: number | undefined;

  const relevant = (event: StoreChangeEvent): boolean =>
    event.type === 'reset' || event.label === undefined || event.label === (label ?? event.label);

  const schedule = (delay: number): void => {
    if (closed || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, delay);
    (timer as { unref?: () => void }).unref?.();
  };

  const onEvent = (event: StoreChangeEvent): void => {
    if (!relevant(event)) return;
    behindSince ??= Date.now();
    // Bounded whatever arrives: past MAX_NAMED_READS names, one reload covers them all (and any that follow).
    if (event.type === 'reset') reloadPending = true;
    else if (!reloadPending) pending.add(event.name);
    if (pending.size > MAX_NAMED_READS) {
      reloadPending = true;
      pending.clear();
    }
    schedule(batchMs);
  };

  /** Applies one batch: every prompt in `entries` is set, every owned name in `gone` removed. */
  const apply = (entries: StoredPrompt[], gone: readonly string[]): void => {
    // Compared by content, not version: a store without history reports the same version after an edit.
    const changed = entries.filter(
      (e) => applied.get(e.name) !== JSON.stringify(e.definition) || !registry.has(e.name),
    );
    const refused = new Set(setAll(changed));
    // A prompt whose current version the registry refuses is withdrawn rather than served stale.
    const removals = [...gone, ...refused].filter(
      (name) => (applied.delete(name) && versions.delete(name)) || withheldNames.delete(name),
    );
    if (removals.length > 0) registry.remove(removals);
    // Withheld names answer -32603 (a server fault), not "Unknown prompt", until the entry is valid or deleted;
    // a prompt of that name from another source stays as it is.
    for (const [name, reason] of withheld) {
      if (registry.has(name)) continue;
      registry.withhold(name, reason);
      withheldNames.add(name);
    }
    withheld.clear();
    for (const e of changed) {
      if (refused.has(e.name)) continue;
      withheldNames.delete(e.name);
      versions.set(e.name, e.version);
      applied.set(e.name, JSON.stringify(e.definition));
      log.info(
        { event: 'prompt_synced', prompt: e.name, version: e.version, label: label ?? null },
        'prompt synced from store',
      );
    }
  };

  /** Sets every entry in one call; when that batch fails, one by one, and returns the names the registry refused. */
  const setAll = (entries: StoredPrompt[]): string[] => {
    if (entries.length === 0) return [];
    const definitions: TemplatePromptDefinition[] = entries.map((e) => e.definition);
    const byName = new Map(entries.map((e) => [e.name, e.version]));
    const options = { version: (name: string) => byName.get(name), ...reads };
    try {
      registry.set(definitions, options);
      return [];
    } catch {
      const refused: string[] = [];
      for (const e of entries) {
        try {
          registry.set(e.definition, { version: e.version, ...reads });
        } catch (error) {
          refused.push(e.name);
          withhold(e.name, error);
        }
      }
      return refused;
    }
  };

  /** Names withheld by the next apply (name -> reason), and the names this sync withholds in the registry. */
  const withheld = new Map<string, string>();
  const withheldNames = new Set<string>();
  const withhold = (name: string, error: unknown): void => {
    withheld.set(name, isPromptError(error) ? error.message : errorClassName(error));
    log.warn(
      {
        event: 'prompt_withheld',
        prompt: name,
        code: isPromptError(error) ? error.code : 'INTERNAL_ERROR',
        detail: isPromptError(error) ? error.message : errorClassName(error),
      },
      'stored prompt withheld from the registry',
    );
  };

  const loadAll = async (): Promise<void> => {
    const invalid = new Map<string, string>();
    const entries = await store.list({ ...reads, onInvalid: (name, reason) => invalid.set(name, reason) });
    for (const [name, reason] of invalid) withheld.set(name, reason);
    const present = new Set(entries.map((e) => e.name));
    apply(
      entries,
      [...versions.keys(), ...withheldNames].filter((name) => !present.has(name)),
    );
  };

  const loadSome = async (names: string[]): Promise<void> => {
    const found: StoredPrompt[] = [];
    const gone: string[] = [];
    for (const name of names) {
      try {
        const entry = await store.get(name, reads);
        if (entry === undefined) gone.push(name);
        else found.push(entry);
      } catch (error) {
        // An entry that exists but cannot be served is withdrawn; a failing store is retried (see flush).
        if (!isPromptError(error)) throw error;
        gone.push(name);
        withhold(name, error);
      }
    }
    apply(found, gone);
  };

  /** Applies what is pending, one batch at a time; concurrent callers share the run in progress. */
  const flush = (): Promise<void> => {
    running ??= drain().finally(() => {
      running = undefined;
    });
    return running;
  };

  const drain = async (): Promise<void> => {
    await Promise.resolve();
    const seen = Date.now();
    while (!closed && (reloadPending || pending.size > 0)) {
      const reload = reloadPending;
      const names = [...pending];
      reloadPending = false;
      pending.clear();
      try {
        // A large burst (a bulk SQL import) is cheaper to read in one query than name by name.
        await (reload || names.length > MAX_NAMED_READS ? loadAll() : loadSome(names));
        retryMs = RETRY_MIN_MS;
      } catch (error) {
        // Keep serving the last good set; read everything again once the store answers.
        log.warn(
          { event: 'prompt_sync_failed', error: errorClassName(error), retryMs },
          'prompt store unreadable; retrying',
        );
        reloadPending = true;
        schedule(retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        return;
      }
    }
    // Caught up with everything seen before this run began (later changes keep their own start).
    if (!closed && !reloadPending && pending.size === 0 && behindSince !== undefined && behindSince <= seen) {
      behindSince = undefined;
    }
  };

  const unwatch = store.watch(onEvent);
  try {
    await loadAll();
  } catch (error) {
    unwatch();
    throw error;
  }
  // A change reaches the registry once the store reports it and one batch window has passed (unbounded when the
  // store does not say how soon it reports).
  const storeDelay = typeof store.changeDelayMs === 'number' ? store.changeDelayMs : Infinity;
  const undeclare = declareChangeDelay(registry, storeDelay + batchMs);

  return {
    label,
    versions,
    get lagMs() {
      return behindSince === undefined ? 0 : Math.max(0, Date.now() - behindSince);
    },
    async reload() {
      reloadPending = true;
      await flush();
    },
    async settled() {
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      await flush();
    },
    close() {
      closed = true;
      undeclare();
      unwatch();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
