/**
 * The options of `createPostgresPromptStore`, and their checking: what a store is given, resolved into what it
 * runs with.
 *
 * @module
 */
import type { Logger, SafeLogger } from '../../logger.js';
import { toSafeLogger } from '../../logger.js';
import { TIMEOUT_MS, integerOption } from '../../options.js';
import { DEFAULT_LABEL, checkLabel, tableNames } from './schema.js';
import type { TableNames } from './schema.js';
import type { PgListenerClient, PgPool } from './types.js';

/** Options of {@link createPostgresPromptStore}. */
export interface PostgresPromptStoreOptions {
  /** A `pg.Pool` (or anything with `query` and `connect`). */
  pool: PgPool;
  /** The prompt table (default `prompts`); `<table>_versions`, `_labels` and `_label_history` sit next to it. */
  table?: string;
  /** The schema (default `public`). */
  schema?: string;
  /**
   * Opens the session connection used for LISTEN (default: a client checked out of `pool` for as long as someone
   * watches, so give the pool room for it: `max` of 2 or more). LISTEN needs a session: behind a transaction-mode
   * pooler (PgBouncer) pass a direct connection here,
   * e.g. `async () => { const c = new pg.Client(directUrl); await c.connect(); return c; }`.
   */
  listener?: () => Promise<PgListenerClient>;
  /** The label `get`/`list` read when none is given (default `production`). */
  label?: string;
  /** pino-style logger: served versions (info), invalid rows (error), lost and recovered connections (warn/info). */
  logger?: Logger;
  /**
   * How often the listener checks its connection with `SELECT 1` (default 10,000 ms); a check still unanswered at the
   * next one counts as a lost connection, and so does connecting or `LISTEN` taking longer than this.
   */
  heartbeatMs?: number;
  /** Reconnect backoff: first delay (default 100 ms), doubling up to `maxMs` (default 5,000 ms). */
  reconnect?: { minMs?: number; maxMs?: number };
}

/** @internal What a store runs with: its options checked, defaults filled in. */
export interface ResolvedStoreOptions {
  pool: PgPool;
  names: TableNames;
  defaultLabel: string;
  log: SafeLogger;
  heartbeatMs: number;
  retryMinMs: number;
  retryMaxMs: number;
  connectListener: () => Promise<PgListenerClient>;
}

/** @internal The listener's timing when the options leave it out. */
export const DEFAULT_STORE_TIMING = Object.freeze({ heartbeatMs: 10_000, reconnectMinMs: 100, reconnectMaxMs: 5_000 });

function positiveInteger(value: unknown, what: string, fallback: number): number {
  return integerOption('createPostgresPromptStore', what, value, { ...TIMEOUT_MS, default: fallback });
}

/** @internal Checks the options of `createPostgresPromptStore` (throwing at the first bad one) and fills in defaults. */
export function resolveStoreOptions(options: PostgresPromptStoreOptions): ResolvedStoreOptions {
  const pool = options.pool;
  if (
    pool === null ||
    typeof pool !== 'object' ||
    typeof pool.query !== 'function' ||
    typeof pool.connect !== 'function'
  ) {
    throw new TypeError('createPostgresPromptStore: pool must be a pg.Pool (an object with query and connect)');
  }
  const names = tableNames(options.schema ?? 'public', options.table ?? 'prompts');
  const defaultLabel = checkLabel(options.label ?? DEFAULT_LABEL, 'label');
  const log = toSafeLogger(options.logger);
  const heartbeatMs = positiveInteger(options.heartbeatMs, 'heartbeatMs', DEFAULT_STORE_TIMING.heartbeatMs);
  const retryMinMs = positiveInteger(options.reconnect?.minMs, 'reconnect.minMs', DEFAULT_STORE_TIMING.reconnectMinMs);
  const retryMaxMs = Math.max(
    retryMinMs,
    positiveInteger(options.reconnect?.maxMs, 'reconnect.maxMs', DEFAULT_STORE_TIMING.reconnectMaxMs),
  );
  const connectListener =
    options.listener ??
    ((): Promise<PgListenerClient> => pool.connect() as Promise<unknown> as Promise<PgListenerClient>);
  return { pool, names, defaultLabel, log, heartbeatMs, retryMinMs, retryMaxMs, connectListener };
}
