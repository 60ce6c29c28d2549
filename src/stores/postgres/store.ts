/**
 * `mcp-prompt-kit/postgres`: prompts stored in PostgreSQL with versions, labels and a history, shared by every server
 * replica through LISTEN/NOTIFY. Bring your own `pg` pool (`pg` is an optional peer dependency).
 *
 * @module
 */
import { PromptError } from '../../errors.js';
import { setOwn } from '../../json.js';
import { integerOption } from '../../options.js';
import type { StoreChangeEvent, StoreReadOptions, StoredPrompt } from '../contract.js';
import { invalidEntryError, storageCheck } from '../definition.js';
import { inTransaction } from './client.js';
import type { Operation } from './client.js';
import { startListener } from './listener.js';
import { parsePayload } from './payload.js';
import type { Listener } from './listener.js';
import { planMigration, runMigration, upToDateReport } from './migrate.js';
import { readRow } from './rows.js';
import { CONTENT_COLUMNS, DEFAULT_LABEL, LATEST, checkLabel } from './schema.js';
import { labelSetting, moveLabel, removeLabel, setWriteSettings, writePrompt } from './writes.js';
import { resolveStoreOptions } from './store-options.js';
import type { PostgresPromptStoreOptions } from './store-options.js';
import type {
  LabelMove,
  PostgresPromptStore,
  PromptHistory,
  PromptTransaction,
  PromptVersion,
  PutOptions,
} from './store-types.js';

export type { LabelMove, PostgresPromptStore, PromptHistory, PromptTransaction, PromptVersion, PutOptions };

/** A foreign NOTIFY payload is logged at most this often. */
const FOREIGN_LOG_INTERVAL_MS = 60_000;

/** Checks `label` (see checkLabel) and refuses `latest`, which always points to the newest version. */
function notLatest(what: string, label: string, verb = 'moved'): string {
  if (checkLabel(label) === LATEST)
    throw new RangeError(`${what}: 'latest' always points to the newest version; it cannot be ${verb}`);
  return label;
}

/** The labels a put moves, checked (`latest` cannot be moved). */
function putLabels(options: PutOptions): readonly string[] {
  return (options.labels ?? [DEFAULT_LABEL]).map((l) => notLatest('put', l));
}

/** Checks a label move's label and version. */
function checkMovable(what: string, label: string, version: number): void {
  notLatest(what, label);
  integerOption(what, 'version', version, { min: 1 });
}

/**
 * Creates a prompt store on a PostgreSQL table. Call `migrate()` once (any replica; concurrent runs are serialised)
 * before use. Every `put` (and every SQL INSERT or UPDATE of a prompt row) makes a new immutable version and moves the
 * `production` label to it unless told otherwise; `get`/`list` read the store's `label` (default `production`).
 * Rows that break the definition rules are never served: `list` leaves them out and `get` throws INTERNAL_ERROR
 * (clients see only "Internal error"); the logger gets `{event: 'prompt_store_invalid_row', table, prompt, version,
 * reason}`. Each `get` logs the served version: `{event: 'prompt_store_get', prompt, version, label}`. A write whose
 * connection fails (a backend killed mid-transaction) rolls back and rejects with INTERNAL_ERROR, logged as
 * `{event: 'prompt_store_write_failed', table, operation, prompt?, error, sqlState?}`; its client is destroyed, never
 * handed out again, and never takes the process down.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { PromptRegistry, syncRegistry } from 'mcp-prompt-kit';
 * import { createPostgresPromptStore } from 'mcp-prompt-kit/postgres';
 *
 * const store = createPostgresPromptStore({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
 * await store.migrate();
 * await store.put({ name: 'greet', messages: [{ role: 'user', content: 'Hello {{who}}' }] });
 * const registry = new PromptRegistry();
 * const sync = await syncRegistry(store, registry, { label: 'production' });
 * ```
 */
export function createPostgresPromptStore(options: PostgresPromptStoreOptions): PostgresPromptStore {
  const compilableDefinition = storageCheck();
  const {
    pool,
    names: n,
    defaultLabel,
    log,
    heartbeatMs,
    retryMinMs,
    retryMaxMs,
    connectListener,
  } = resolveStoreOptions(options);
  const watchers = new Set<(event: StoreChangeEvent) => void>();
  let listener: Listener | undefined;

  const emit = (event: StoreChangeEvent): void => {
    for (const watcher of [...watchers]) {
      try {
        watcher(event);
      } catch {
        /* one watcher's fault must not hide the change from the others */
      }
    }
  };

  /** A payload the triggers never send is ignored; logged at most once a minute (with how many were ignored since). */
  let foreignLoggedAt: number | undefined;
  let foreignSince = 0;
  const foreignPayload = (payload: string | undefined): void => {
    foreignSince++;
    const now = Date.now();
    if (foreignLoggedAt !== undefined && now - foreignLoggedAt < FOREIGN_LOG_INTERVAL_MS) return;
    log.warn(
      {
        event: 'prompt_listener_foreign_payload',
        channel: n.channel,
        bytes: payload?.length ?? 0,
        ignored: foreignSince,
      },
      'ignored a NOTIFY payload the prompt triggers never send',
    );
    foreignLoggedAt = now;
    foreignSince = 0;
  };

  /** Operations wait for a starting listener, so that nothing they change goes unnoticed by this process. */
  const ready = async (): Promise<void> => {
    if (listener !== undefined) await listener.started;
  };

  const operation = (name: string, prompt?: string): Operation =>
    prompt === undefined ? { name, table: n.display, log } : { name, table: n.display, prompt, log };

  const readLabel = (read: StoreReadOptions | undefined): string =>
    read?.label === undefined ? defaultLabel : checkLabel(read.label);
  const columns = CONTENT_COLUMNS.map((c) => c.column);
  /**
   * The rows a label serves (`latest`: the prompt table itself), optionally of one name, sorted by name. A legacy row
   * not converted yet (no messages, so no version a label could point to) is read under every label that has no
   * version of its name: it is reported as invalid there, never taken for a prompt that does not exist.
   */
  const selectFor = (label: string, name?: string): { text: string; params: unknown[] } => {
    if (label === LATEST) {
      const where = name === undefined ? '' : 'WHERE name = $1';
      return {
        text: `SELECT name, version, ${columns.join(', ')} FROM ${n.prompts} ${where} ORDER BY name COLLATE "C"`,
        params: name === undefined ? [] : [name],
      };
    }
    const one = (alias: string): string => (name === undefined ? '' : `AND ${alias}.name = $2`);
    return {
      text: `SELECT * FROM (
          SELECT v.name, v.version, ${columns.map((c) => `v.${c}`).join(', ')} FROM ${n.labels} l
            JOIN ${n.versions} v ON v.name = l.name AND v.version = l.version WHERE l.label = $1 ${one('l')}
          UNION ALL
          SELECT p.name, p.version, ${columns.map((c) => `p.${c}`).join(', ')} FROM ${n.prompts} p
            WHERE p.messages IS NULL ${one('p')} AND NOT EXISTS (SELECT 1 FROM ${n.labels} l WHERE l.name = p.name AND l.label = $1)
        ) AS served ORDER BY name COLLATE "C"`,
      params: name === undefined ? [label] : [label, name],
    };
  };

  /**
   * What `revisions` reads: the names and versions a label serves (as `selectFor`, without the definitions), with a
   * fingerprint of them all, in one statement (one snapshot); the rows only when the fingerprint is not `since`.
   */
  const revisionsQuery = (label: string, since: string | undefined): { text: string; params: unknown[] } => {
    const served =
      label === LATEST
        ? `SELECT name, version FROM ${n.prompts}`
        : `SELECT l.name, l.version FROM ${n.labels} l WHERE l.label = $2
           UNION ALL
           SELECT p.name, p.version FROM ${n.prompts} p
             WHERE p.messages IS NULL AND NOT EXISTS (SELECT 1 FROM ${n.labels} l WHERE l.name = p.name AND l.label = $2)`;
    return {
      text: `WITH served AS (${served}),
        summary AS (
          SELECT count(*) || ':' || md5(coalesce(string_agg(name || ':' || coalesce(version::text, '-'), ','
            ORDER BY name COLLATE "C"), '')) AS fingerprint FROM served)
        SELECT s.fingerprint, v.name, v.version FROM summary s
          LEFT JOIN served v ON s.fingerprint IS DISTINCT FROM $1::text ORDER BY v.name COLLATE "C"`,
      params: label === LATEST ? [since ?? null] : [since ?? null, label],
    };
  };

  const reportInvalid = (reading: { name: string; version: number | null; reason: string }, label: string): void => {
    log.error(
      {
        event: 'prompt_store_invalid_row',
        table: n.display,
        prompt: reading.name,
        version: reading.version,
        label,
        reason: reading.reason,
      },
      'stored prompt row is invalid and is not served',
    );
  };

  const store: PostgresPromptStore = {
    // NOTIFY arrives at once; a connection that died silently is noticed within two heartbeats, listened again within
    // the longest reconnect wait, and everything is then read again.
    changeDelayMs: 2 * heartbeatMs + retryMaxMs,
    async migrate(migrateOptions = {}) {
      // An up-to-date table is only read (catalogs and rows, as any read): replicas starting together pass at once.
      const pending = await inTransaction(pool, operation('migrate'), {}, (client) => planMigration(client, n));
      let report = pending === undefined ? upToDateReport() : undefined;
      // The lock order (see pg-migrate.ts) leaves no deadlock among the store's own sessions; another session that
      // locks the tables in another order can still close a cycle, and PostgreSQL then asks for the transaction again.
      for (let attempt = 1; report === undefined; attempt++) {
        try {
          report = await inTransaction(pool, operation('migrate'), {}, (client) =>
            runMigration(client, n, migrateOptions),
          );
        } catch (error) {
          if (attempt >= MIGRATE_ATTEMPTS || !isDeadlock(error)) throw error;
          log.warn(
            { event: 'prompt_store_migrate_retried', table: n.display, attempt },
            'migration deadlocked with another session; running it again',
          );
        }
      }
      log.info({ event: 'prompt_store_migrated', table: n.display, ...report }, 'prompt table migrated');
      return report;
    },

    async get(name, read) {
      const label = readLabel(read);
      await ready();
      const query = selectFor(label, name);
      const { rows } = await pool.query(query.text, query.params);
      const row = rows[0];
      if (row === undefined) return undefined;
      const reading = readRow(row);
      if (!reading.ok) {
        reportInvalid(reading, label);
        throw invalidEntryError(name, reading.reason);
      }
      log.info(
        { event: 'prompt_store_get', prompt: name, version: reading.entry.version, label },
        'prompt read from store',
      );
      return reading.entry;
    },

    async list(read) {
      const label = readLabel(read);
      await ready();
      const query = selectFor(label);
      const { rows } = await pool.query(query.text, query.params);
      const entries: StoredPrompt[] = [];
      for (const row of rows) {
        const reading = readRow(row);
        if (reading.ok) entries.push(reading.entry);
        else {
          reportInvalid(reading, label);
          read?.onInvalid?.(reading.name, reading.reason);
        }
      }
      return entries;
    },

    async revisions(read = {}) {
      const label = readLabel(read);
      const query = revisionsQuery(label, read.since);
      const { rows } = await pool.query(query.text, query.params);
      const fingerprint = String(rows[0]?.['fingerprint']);
      if (fingerprint === read.since) return { fingerprint };
      const entries: { name: string; version: number }[] = [];
      for (const row of rows) {
        // A legacy row not converted yet has no version: 0, never a version a reader holds.
        if (typeof row['name'] === 'string') entries.push({ name: row['name'], version: Number(row['version'] ?? 0) });
      }
      return { fingerprint, entries };
    },

    isListening() {
      return listener?.listening ?? false;
    },

    async put(definition, putOptions = {}) {
      const checked = compilableDefinition(definition);
      const labels = putLabels(putOptions);
      await ready();
      const settings = { actor: putOptions.actor, labels: labelSetting(labels) };
      const version = await inTransaction(pool, operation('put', checked.name), settings, (client) =>
        writePrompt(client, n, checked),
      );
      return { name: checked.name, version, definition: checked };
    },

    async delete(name, deleteOptions = {}) {
      await ready();
      return inTransaction(pool, operation('delete', name), { actor: deleteOptions.actor }, async (client) => {
        const { rowCount } = await client.query(`DELETE FROM ${n.prompts} WHERE name = $1`, [name]);
        return (rowCount ?? 0) > 0;
      });
    },

    watch(callback) {
      const watcher = (event: StoreChangeEvent): void => callback(event);
      watchers.add(watcher);
      listener ??= startListener({
        connect: connectListener,
        channel: n.channel,
        onPayload: (payload) => {
          const event = parsePayload(payload);
          if (event === undefined) foreignPayload(payload);
          else emit(event);
        },
        onRecovered: () => emit({ type: 'reset' }),
        log,
        heartbeatMs,
        retryMinMs,
        retryMaxMs,
      });
      return () => {
        watchers.delete(watcher);
        if (watchers.size === 0 && listener !== undefined) {
          void listener.stop();
          listener = undefined;
        }
      };
    },

    async versions(name) {
      const { rows } = await pool.query(
        `SELECT v.version, v.created_at, v.created_by,
           coalesce(array_agg(l.label ORDER BY l.label) FILTER (WHERE l.label IS NOT NULL), '{}') AS labels,
           v.version = p.version AS newest
         FROM ${n.versions} v LEFT JOIN ${n.labels} l ON l.name = v.name AND l.version = v.version
         LEFT JOIN ${n.prompts} p ON p.name = v.name
         WHERE v.name = $1 GROUP BY v.version, v.created_at, v.created_by, p.version ORDER BY v.version DESC`,
        [name],
      );
      return rows.map((r) => ({
        version: Number(r['version']),
        createdAt: r['created_at'] as Date,
        createdBy: String(r['created_by']),
        labels: r['newest'] === true ? [...(r['labels'] as string[]), LATEST].sort() : (r['labels'] as string[]),
      }));
    },

    async labels(name) {
      const { rows } = await pool.query(
        `SELECT label, version FROM ${n.labels} WHERE name = $1 UNION ALL SELECT '${LATEST}', version FROM ${n.prompts} WHERE name = $1 AND messages IS NOT NULL`,
        [name],
      );
      const out: Record<string, number> = {};
      for (const r of rows) setOwn(out, String(r['label']), Number(r['version']));
      return out;
    },

    async history(name) {
      const [versions, moves] = await Promise.all([
        store.versions(name),
        pool.query(
          `SELECT label, from_version, to_version, moved_at, moved_by FROM ${n.history} WHERE name = $1 ORDER BY id DESC`,
          [name],
        ),
      ]);
      return {
        name,
        versions,
        labelMoves: moves.rows.map((r) => ({
          label: String(r['label']),
          from: r['from_version'] === null ? null : Number(r['from_version']),
          to: r['to_version'] === null ? null : Number(r['to_version']),
          movedAt: r['moved_at'] as Date,
          movedBy: String(r['moved_by']),
        })),
      };
    },

    async setLabel(name, label, version, labelOptions = {}) {
      checkMovable('setLabel', label, version);
      await ready();
      return inTransaction(pool, operation('setLabel', name), { actor: labelOptions.actor }, (client) =>
        moveLabel(client, n, name, label, version),
      );
    },

    async deleteLabel(name, label, labelOptions = {}) {
      notLatest('deleteLabel', label, 'removed');
      await ready();
      return inTransaction(pool, operation('deleteLabel', name), { actor: labelOptions.actor }, (client) =>
        removeLabel(client, n, name, label),
      );
    },

    async transaction(work, transactionOptions = {}) {
      await ready();
      // One operation record for the whole transaction: each step names itself, so a failure says which one failed.
      const step: Operation = operation('transaction');
      const actor = transactionOptions.actor;
      return inTransaction(pool, step, { actor }, async (client) => {
        let open = true;
        const at = (name: string, prompt: string): void => {
          // The connection goes back to the pool when `work` settles: a step after that would run outside it.
          if (!open) throw new Error(`transaction: ${name} called after the transaction ended`);
          step.name = `transaction (${name})`;
          step.prompt = prompt;
        };
        const tx: PromptTransaction = {
          async put(definition, putOptions = {}) {
            const checked = compilableDefinition(definition);
            const labels = putLabels(putOptions);
            at('put', checked.name);
            await setWriteSettings(client, { actor: putOptions.actor ?? actor, labels: labelSetting(labels) });
            const version = await writePrompt(client, n, checked);
            return { name: checked.name, version, definition: checked };
          },
          async setLabel(name, label, version, labelOptions = {}) {
            checkMovable('setLabel', label, version);
            at('setLabel', name);
            await setWriteSettings(client, { actor: labelOptions.actor ?? actor });
            return moveLabel(client, n, name, label, version);
          },
          async deleteLabel(name, label, labelOptions = {}) {
            notLatest('deleteLabel', label, 'removed');
            at('deleteLabel', name);
            await setWriteSettings(client, { actor: labelOptions.actor ?? actor });
            return removeLabel(client, n, name, label);
          },
        };
        try {
          return await work(tx);
        } finally {
          open = false;
        }
      });
    },

    async rollback(name, label = DEFAULT_LABEL, rollbackOptions = {}) {
      notLatest('rollback', label);
      await ready();
      return inTransaction(pool, operation('rollback', name), { actor: rollbackOptions.actor }, async (client) => {
        // The label's row stays locked until the move: a move in progress finishes first, and this undoes that one.
        await client.query(`SELECT 1 FROM ${n.labels} WHERE name = $1 AND label = $2 FOR UPDATE`, [name, label]);
        const { rows } = await client.query(
          `SELECT from_version FROM ${n.history} WHERE name = $1 AND label = $2 ORDER BY id DESC LIMIT 1`,
          [name, label],
        );
        const target = rows[0]?.['from_version'];
        if (target === undefined || target === null) {
          throw new PromptError(
            'PROMPT_NOT_FOUND',
            `Nothing to roll back: label ${label} of ${name} has no earlier version`,
          );
        }
        await moveLabel(client, n, name, label, Number(target));
        return Number(target);
      });
    },

    async close() {
      watchers.clear();
      const running = listener;
      listener = undefined;
      await running?.stop();
    },
  };
  return store;
}

/** How many times `migrate` runs when it deadlocks with another session. */
const MIGRATE_ATTEMPTS = 3;

/** Whether a store failure was PostgreSQL's deadlock detection (SQLSTATE 40P01) rolling the transaction back. */
function isDeadlock(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  return typeof cause === 'object' && cause !== null && (cause as { code?: unknown }).code === '40P01';
}
