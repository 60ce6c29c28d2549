/**
 * `syncRegistry`: keeps a {@link PromptRegistry} in step with a {@link PromptStore}.
 *
 * @module
 */
import type { TemplatePromptDefinition } from '../definition/types.js';
import { errorClassName, isPromptError } from '../errors.js';
import { DELAY_MS, integerOption } from '../options.js';
import { toSafeLogger } from '../logger.js';
import type { PromptRegistry } from '../registry/registry.js';
import { declareChangeDelay } from '../registry/change-delay.js';
import type { PromptStore, StoreChangeEvent, StoredPrompt } from './contract.js';
import { SnapshotKeeper } from './snapshot-keeper.js';
import type { RegistrySync, RegistrySyncHealth, SyncRegistryOptions } from './sync-types.js';

export type { RegistrySync, RegistrySyncHealth, SyncRegistryOptions };

const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;
/** Above this many changed names in one batch, everything is read again in one query instead. */
const MAX_NAMED_READS = 50;
/** @internal How long one read of the store may take unless `readTimeoutMs` says otherwise. */
export const DEFAULT_READ_TIMEOUT_MS = 30_000;

/** A store read that did not answer within `readTimeoutMs`: retried like any failed read. */
class StoreReadTimeout extends Error {
  readonly code = 'SYNC_READ_TIMEOUT';
  constructor(what: string, ms: number) {
    super(`syncRegistry: ${what} did not answer within ${ms} ms (readTimeoutMs)`);
    this.name = 'StoreReadTimeout';
  }
}
const DEFAULT_RECONCILE_MS = 10_000;

/** The code of a failed read for health and logs: a string `code` (SQLSTATE, errno name), never the message. */
function errorCode(error: unknown): string | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(code) ? code : null;
}

/**
 * Loads every prompt of `store` into `registry`, then follows the store's changes: each burst of changes becomes one
 * `registry.set` plus at most one `registry.remove` (so one `list_changed` per burst once debounced by
 * attachPrompts). Deleted prompts, and entries that turned invalid, are removed from the registry; an entry the
 * registry refuses is withheld and logged. When the store cannot be read (a lost connection) the registry keeps
 * serving the last good set and the sync retries with backoff; a `reset` from the store reloads everything, and a
 * periodic reconcile (`reconcileMs`) repairs a change whose notification was lost. Rejects when the first load fails
 * and no usable `snapshot` was given. Only prompts this sync added are ever removed.
 *
 * @example
 * ```ts
 * const registry = new PromptRegistry();
 * const sync = await syncRegistry(createMemoryPromptStore(), registry, { label: 'production' });
 * sync.health().status; // 'ok'
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
  const snapshotAfterMs = integerOption('syncRegistry', 'snapshotAfterMs', options.snapshotAfterMs, {
    ...DELAY_MS,
    default: 500,
  });
  const snapshotIntervalMs = integerOption('syncRegistry', 'snapshotIntervalMs', options.snapshotIntervalMs, {
    ...DELAY_MS,
    default: 1_000,
  });
  const reconcileMs = integerOption('syncRegistry', 'reconcileMs', options.reconcileMs, {
    ...DELAY_MS,
    default: DEFAULT_RECONCILE_MS,
  });
  const readTimeoutMs = integerOption('syncRegistry', 'readTimeoutMs', options.readTimeoutMs, {
    ...DELAY_MS,
    default: DEFAULT_READ_TIMEOUT_MS,
  });
  /** `read`, or a StoreReadTimeout once readTimeoutMs passed (0: no limit). */
  const bounded = <T>(what: string, read: Promise<T>): Promise<T> => {
    if (readTimeoutMs === 0) return read;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreReadTimeout(what, readTimeoutMs)), readTimeoutMs);
    });
    read.catch(() => undefined);
    return Promise.race([read, late]).finally(() => clearTimeout(timer));
  };
  const snapshot = options.snapshot;
  if (
    snapshot !== undefined &&
    (typeof snapshot !== 'object' ||
      snapshot === null ||
      typeof snapshot.load !== 'function' ||
      typeof snapshot.save !== 'function')
  ) {
    throw new TypeError('syncRegistry: snapshot must have load() and save(text) (see createFileSnapshot)');
  }
  const log = toSafeLogger(options.logger);
  const reads = label === undefined ? {} : { label };
  const versions = new Map<string, number>();
  /** The definition (as JSON) this sync last put into the registry, by name. */
  const applied = new Map<string, string>();
  /** What this sync serves, by name: what a snapshot saves. */
  const served = new Map<string, StoredPrompt>();
  const pending = new Set<string>();
  let reloadPending = false;
  let reconcilePending = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let retryMs = RETRY_MIN_MS;
  let closed = false;
  /** The store's fingerprint of what the registry is known to match (undefined: compare names and versions). */
  let fingerprint: string | undefined;
  /** The version last listed for each withheld name (read again only when it moves). */
  const withheldVersions = new Map<string, number>();

  // Health.
  let source: 'store' | 'snapshot' = 'store';
  let readFromStore = false;
  let snapshotSince: number | undefined;
  let failingSince: number | undefined;
  let notListeningSince: number | undefined;
  let pendingSince: number | undefined;
  let lastApplied: RegistrySyncHealth['lastApplied'] = null;
  let lastCheckedAt: number | null = null;
  let lastError: RegistrySyncHealth['lastError'] = null;
  /** Called once with the outcome of the first full read (null: it succeeded). */
  let onFirstRead: ((error: unknown) => void) | undefined;

  const listening = (): boolean => {
    let now: boolean;
    try {
      now = store.isListening?.() ?? true;
    } catch {
      now = false;
    }
    if (now) notListeningSince = undefined;
    else notListeningSince ??= Date.now();
    return now;
  };

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
    pendingSince ??= Date.now();
    // Bounded whatever arrives: past MAX_NAMED_READS names, one reload covers them all (and any that follow).
    if (event.type === 'reset') reloadPending = true;
    else if (!reloadPending) pending.add(event.name);
    if (pending.size > MAX_NAMED_READS) {
      reloadPending = true;
      pending.clear();
    }
    schedule(batchMs);
  };

  /** Applies one batch: every prompt in `entries` is set, every owned name in `gone` removed; whether it changed. */
  const apply = (entries: StoredPrompt[], gone: readonly string[]): boolean => {
    // Compared by content, not version: a store without history reports the same version after an edit.
    const changed = entries.filter(
      (e) => applied.get(e.name) !== JSON.stringify(e.definition) || !registry.has(e.name),
    );
    const refused = new Set(setAll(changed));
    // A prompt whose current version the registry refuses is withdrawn rather than served stale.
    const removals = [...gone, ...refused].filter(
      (name) => (applied.delete(name) && versions.delete(name) && served.delete(name)) || withheldNames.delete(name),
    );
    for (const name of gone) withheldVersions.delete(name);
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
      withheldVersions.delete(e.name);
      versions.set(e.name, e.version);
      applied.set(e.name, JSON.stringify(e.definition));
      served.set(e.name, e);
      lastApplied = { prompt: e.name, version: e.version, at: Date.now() };
      log.info(
        { event: 'prompt_synced', prompt: e.name, version: e.version, label: label ?? null },
        'prompt synced from store',
      );
    }
    return changed.length > 0 || removals.length > 0;
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

  const loadAll = async (): Promise<boolean> => {
    const invalid = new Map<string, string>();
    const entries = await bounded(
      'store.list()',
      store.list({ ...reads, onInvalid: (name, reason) => invalid.set(name, reason) }),
    );
    if (closed) return false;
    for (const [name, reason] of invalid) withheld.set(name, reason);
    const present = new Set(entries.map((e) => e.name));
    const changed = apply(
      entries,
      [...versions.keys(), ...withheldNames].filter((name) => !present.has(name)),
    );
    const first = !readFromStore;
    readFromStore = true;
    source = 'store';
    snapshotSince = undefined;
    lastCheckedAt = Date.now();
    if (changed || first) snapshotChanged();
    return changed;
  };

  const loadSome = async (names: readonly string[], removed: readonly string[] = []): Promise<boolean> => {
    const found: StoredPrompt[] = [];
    const gone: string[] = [...removed];
    for (const name of names) {
      try {
        const entry = await bounded('store.get()', store.get(name, reads));
        if (entry === undefined) gone.push(name);
        else found.push(entry);
      } catch (error) {
        // An entry that exists but cannot be served is withdrawn; a failing store is retried (see flush).
        if (!isPromptError(error)) throw error;
        gone.push(name);
        withhold(name, error);
      }
    }
    if (closed) return false;
    const changed = apply(found, gone);
    if (changed) snapshotChanged();
    return changed;
  };

  /**
   * Checks the registry against the store's names and versions (one cheap read) and reads only what differs: a
   * change whose notification was lost is served at the latest one `reconcileMs` later.
   */
  const reconcile = async (): Promise<void> => {
    if (store.revisions === undefined) return;
    const read = await bounded(
      'store.revisions()',
      store.revisions({ ...reads, ...(fingerprint === undefined ? {} : { since: fingerprint }) }),
    );
    if (closed) return;
    if (read.entries === undefined) {
      lastCheckedAt = Date.now();
      return;
    }
    const listed = new Map(read.entries.map((e) => [e.name, e.version]));
    const differing = [...listed]
      .filter(([name, version]) => versions.get(name) !== version && withheldVersions.get(name) !== version)
      .map(([name]) => name);
    const gone = [...versions.keys(), ...withheldNames].filter((name) => !listed.has(name));
    if (differing.length === 0 && gone.length === 0) {
      fingerprint = read.fingerprint;
      lastCheckedAt = Date.now();
      return;
    }
    log.warn(
      { event: 'prompt_sync_reconciled', label: label ?? null, changed: differing.length, removed: gone.length },
      'reconcile found changes the change feed did not report; reading them',
    );
    if (differing.length > MAX_NAMED_READS) await loadAll();
    else await loadSome(differing, gone);
    for (const name of differing) if (withheldNames.has(name)) withheldVersions.set(name, listed.get(name)!);
    // What was read may be newer than the listing: compare names and versions again next time.
    fingerprint = undefined;
    lastCheckedAt = Date.now();
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
    while (!closed && (reloadPending || pending.size > 0 || reconcilePending)) {
      const reload = reloadPending;
      const names = [...pending];
      const check = reconcilePending && !reload && names.length === 0;
      reloadPending = false;
      pending.clear();
      if (check) reconcilePending = false;
      try {
        // A large burst (a bulk SQL import) is cheaper to read in one query than name by name.
        if (check) await reconcile();
        else if (reload || names.length > MAX_NAMED_READS) {
          await loadAll();
          reconcilePending = false;
        } else await loadSome(names);
        // Changes seen outside a reconcile may be newer than the fingerprint known: list names again next time.
        if (!check) fingerprint = undefined;
        retryMs = RETRY_MIN_MS;
        failingSince = undefined;
        const callback = onFirstRead;
        onFirstRead = undefined;
        callback?.(null);
      } catch (error) {
        // Keep serving the last good set; read everything again once the store answers.
        log.warn(
          { event: 'prompt_sync_failed', error: errorClassName(error), code: errorCode(error), retryMs },
          'prompt store unreadable; retrying',
        );
        const now = Date.now();
        lastError = { error: errorClassName(error), code: errorCode(error), at: now };
        failingSince ??= now;
        pendingSince ??= now;
        reloadPending = true;
        schedule(retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        const callback = onFirstRead;
        onFirstRead = undefined;
        callback?.(error);
        return;
      }
    }
    if (!reloadPending && pending.size === 0) pendingSince = undefined;
  };

  const keeper =
    snapshot === undefined
      ? undefined
      : new SnapshotKeeper(snapshot, { label: label ?? null, intervalMs: snapshotIntervalMs, log, served });
  const snapshotChanged = (): void => {
    if (readFromStore) keeper?.changed();
  };

  let reconcileTimer: ReturnType<typeof setInterval> | undefined;
  let undeclare: () => void = () => {};
  let unwatch: () => void = () => {};
  const stop = (): void => {
    closed = true;
    undeclare();
    unwatch();
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (reconcileTimer !== undefined) clearInterval(reconcileTimer);
    keeper?.close();
  };

  /** The first read had not answered within snapshotAfterMs. */
  const late = Symbol('late');
  const firstRead = new Promise<unknown>((resolve) => {
    onFirstRead = resolve;
  });
  unwatch = store.watch(onEvent);
  reloadPending = true;
  void flush();
  const outcome =
    snapshot === undefined
      ? await firstRead
      : await new Promise<unknown>((resolve) => {
          const wait = setTimeout(() => resolve(late), snapshotAfterMs);
          void firstRead.then((result) => {
            clearTimeout(wait);
            resolve(result);
          });
        });
  if (outcome !== null) {
    const prompts = await keeper?.load();
    if (readFromStore) {
      // The store answered while the snapshot was read: what it said is newer.
    } else if (prompts !== undefined) {
      apply(prompts, []);
      source = 'snapshot';
      snapshotSince = Date.now();
      log.warn(
        {
          event: 'prompt_sync_from_snapshot',
          snapshot: snapshot?.describe,
          prompts: prompts.length,
          error: outcome === late ? 'timeout' : errorClassName(outcome),
        },
        'prompt store unreachable at start: serving the last-known-good snapshot until it answers',
      );
    } else {
      const error = outcome === late ? await firstRead : outcome;
      if (error !== null) {
        stop();
        throw error;
      }
    }
  }
  // A change reaches the registry once the store reports it and one batch window has passed (unbounded when the
  // store does not say how soon it reports); a reconcile bounds it too, when the store can be reconciled.
  const storeDelay = typeof store.changeDelayMs === 'number' ? store.changeDelayMs : Infinity;
  const reconciles = reconcileMs > 0 && typeof store.revisions === 'function';
  undeclare = declareChangeDelay(registry, Math.min(storeDelay, reconciles ? reconcileMs : Infinity) + batchMs);
  if (reconciles) {
    reconcileTimer = setInterval(() => {
      reconcilePending = true;
      listening();
      void flush();
    }, reconcileMs);
    (reconcileTimer as { unref?: () => void }).unref?.();
  }

  return {
    label,
    versions,
    get lagMs() {
      return pendingSince === undefined ? 0 : Math.max(0, Date.now() - pendingSince);
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
    health() {
      const now = Date.now();
      const feed = closed ? false : listening();
      const since = [failingSince, snapshotSince, notListeningSince].filter((t): t is number => t !== undefined);
      const degraded = !closed && since.length > 0;
      return {
        status: closed ? 'closed' : degraded ? 'degraded' : 'ok',
        source,
        listening: feed,
        prompts: served.size,
        lastApplied,
        lastCheckedAt,
        lagMs: pendingSince === undefined ? 0 : Math.max(0, now - pendingSince),
        degradedSince: degraded ? Math.min(...since) : null,
        lastError,
        snapshotSavedAt: keeper?.savedAt ?? null,
      };
    },
    close() {
      stop();
    },
  };
}
