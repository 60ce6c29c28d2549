/**
 * The public types of `syncRegistry`: its options, the running sync and its health.
 *
 * @module
 */
import type { Logger } from '../logger.js';
import type { RegistrySnapshotStorage } from './snapshot.js';

/** Options of {@link syncRegistry}. */
export interface SyncRegistryOptions {
  /** The label the registry follows (default: the store's default, `production` for PostgreSQL). */
  label?: string;
  /** Changes arriving within this many milliseconds are applied as one batch (default 10). */
  batchMs?: number;
  /** pino-style logger: each applied prompt (name, version, label) at info, withheld entries at warn. */
  logger?: Logger;
  /**
   * Where to keep a last-known-good snapshot of what the registry serves (`createFileSnapshot(path)` from
   * `mcp-prompt-kit/fs`). It is saved after changes read from the store (never from a failed read), and when the
   * store cannot be read at start (or has not answered within `snapshotAfterMs`) the registry is filled from it at
   * once; the sync keeps retrying and catches up when the store answers. A snapshot that is corrupt, truncated, of
   * another format or label is logged (`prompt_snapshot_unusable`) and ignored.
   */
  snapshot?: RegistrySnapshotStorage;
  /** How long the first read of the store may take before the snapshot is served instead (default 500 ms). */
  snapshotAfterMs?: number;
  /** Saves of the snapshot are at least this far apart; the changes in between are saved together (default 1,000). */
  snapshotIntervalMs?: number;
  /**
   * How often to check that the registry serves what the store does (default 10,000 ms; 0: never), with a store that
   * has `revisions` (PostgreSQL, memory): one cheap read of names and versions, then only what differs is read. This
   * bounds how stale a replica can be when a change notification is lost.
   */
  reconcileMs?: number;
  /**
   * How long one read of the store may take (default 30,000 ms): a read that has not answered by then counts as
   * failed (logged, retried with backoff) and its answer, if it ever comes, is dropped, so a connection that went
   * silent mid-query cannot stop the sync.
   */
  readTimeoutMs?: number;
}

/** The state of a {@link RegistrySync}, for health checks and readiness endpoints (times: epoch milliseconds). */
export interface RegistrySyncHealth {
  /** `ok`: following the store; `degraded`: serving what it has while the store or its change feed is away. */
  status: 'ok' | 'degraded' | 'closed';
  /** Where the served set came from: the store, or (until the store answers) the snapshot. */
  source: 'store' | 'snapshot';
  /** Whether the store's change feed is connected (true for stores that do not say). */
  listening: boolean;
  /** How many prompts this sync serves. */
  prompts: number;
  /** The last prompt version the sync put into the registry, and when. */
  lastApplied: { prompt: string; version: number; at: number } | null;
  /** When the registry was last confirmed to serve what the store does (a full read or a reconcile). */
  lastCheckedAt: number | null;
  /** How long the oldest change seen (or the reload owed since a failed read) has been waiting; 0 when none. */
  lagMs: number;
  /** Since when the status has been `degraded` (null when it is not). */
  degradedSince: number | null;
  /** The last failed read: the error's class and code (a SQLSTATE, `ECONNREFUSED`), never its message. */
  lastError: { error: string; code: string | null; at: number } | null;
  /** When the snapshot was last saved (null: never, or no snapshot configured). */
  snapshotSavedAt: number | null;
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
  /** Where the sync stands: source, change feed, last applied version, lag, since when degraded, last error. */
  health(): RegistrySyncHealth;
  /** Stops following the store; the registry keeps the prompts it has. */
  close(): void;
}
