/**
 * migrate() with replicas starting together: every race is forced by holding locks on other sessions and waiting for
 * the backends to reach the state under test (pg_stat_activity, pg_locks), never by timing. Every DDL command run in
 * this suite's database is recorded by an event trigger, with the application_name of the session that ran it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPostgresPromptStore } from '../../src/stores/postgres/store.js';
import type { MigrationReport } from '../../src/stores/postgres/migrate.js';
import type { PostgresPromptStore } from '../../src/stores/postgres/store.js';
import { prompt } from './contract.js';
import { testDatabase } from './pg-database.js';
import type { TestDatabase } from './pg-server.js';
import { captureLogs } from '../support/logs.js';
import type { LogLine } from '../support/logs.js';
import { EVENT_WAIT_MS } from '../support/wait.js';

const REPLICAS = 8;

let db: TestDatabase;
let admin: pg.Pool;
let tables = 0;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  db = await testDatabase();
  admin = db.pool({ max: 3, application_name: 'test_admin' });
  admin.on('error', () => {});
  await admin.query(`CREATE TABLE ddl_log (id bigserial PRIMARY KEY, tag text NOT NULL, app text NOT NULL)`);
  await admin.query(`CREATE FUNCTION log_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO public.ddl_log (tag, app) VALUES (tg_tag, current_setting('application_name')); END $$`);
  await admin.query(`CREATE EVENT TRIGGER log_ddl ON ddl_command_start EXECUTE FUNCTION log_ddl()`);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await db?.close();
});

function freshTable(): string {
  return `mig_${++tables}`;
}

/** A replica: its own pool, named `app` in pg_stat_activity and in the DDL log, and its log lines. */
function replica(app: string, table: string): { store: PostgresPromptStore; lines: LogLine[] } {
  const pool = db.pool({ max: 2, application_name: app });
  pool.on('error', () => {});
  const { logger, lines } = captureLogs();
  const store = createPostgresPromptStore({ pool, table, logger });
  cleanups.push(() => store.close());
  return { store, lines };
}

/** A session of its own, for holding locks; rolled back and closed after the test. */
async function session(app: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: db.url, application_name: app });
  client.on('error', () => {});
  await client.connect();
  cleanups.push(() =>
    client
      .query('ROLLBACK')
      .catch(() => undefined)
      .then(() => client.end()),
  );
  return client;
}

/** Resolves once `count` backends named like `app` (SQL LIKE) wait for a lock. */
async function waitingForLock(app: string, count = 1): Promise<void> {
  await expect
    .poll(
      async () => {
        const { rows } = await admin.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE $1 AND wait_event_type = 'Lock'`,
          [app],
        );
        return rows[0].n as number;
      },
      { timeout: EVENT_WAIT_MS, interval: 10 },
    )
    .toBeGreaterThanOrEqual(count);
}

/**
 * Which backend named like `app` waits for a lock (and for what), checked until `work` settles; undefined if none did.
 */
async function lockWaitDuring(app: string, work: Promise<unknown>): Promise<string | undefined> {
  let settled = false;
  void work.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    const { rows } = await admin.query(
      `SELECT application_name, wait_event, left(query, 80) AS query FROM pg_stat_activity WHERE application_name LIKE $1 AND wait_event_type = 'Lock'`,
      [app],
    );
    if (rows.length > 0) return JSON.stringify(rows);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return undefined;
}

/** A promise's outcome as a value, so that a failure is an assertion's subject rather than an unhandled rejection. */
async function outcome<T>(promise: Promise<T>): Promise<{ value: T } | { error: string }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({
      error: `${String((error as { code?: unknown }).code ?? '')} ${error instanceof Error ? error.message : String(error)}`,
    }),
  );
}

/** The value of an outcome, failing the test with the error otherwise. */
function valueOf<T>(result: { value: T } | { error: string }): T {
  if ('error' in result) expect.fail(result.error);
  return result.value;
}

/** DDL commands run by sessions named like `app`, in order. */
async function ddlBy(app: string): Promise<string[]> {
  const { rows } = await admin.query(`SELECT tag FROM ddl_log WHERE app LIKE $1 ORDER BY id`, [app]);
  return rows.map((r: { tag: string }) => r.tag);
}

/** The store's triggers and whether its role constraint is validated. */
async function schemaOf(table: string): Promise<{ triggers: string[]; roleCheckValidated: unknown }> {
  const { rows } = await admin.query(
    `SELECT (SELECT array_agg(t.tgname::text || ' ON ' || t.tgrelid::regclass::text ORDER BY t.tgname) FROM pg_trigger t
               WHERE t.tgrelid IN ($1::regclass, $2::regclass) AND NOT t.tgisinternal) AS triggers,
            (SELECT convalidated FROM pg_constraint WHERE conrelid = $1::regclass AND conname = $3) AS "roleCheckValidated"`,
    [table, `${table}_labels`, `${table}_role_check`],
  );
  return rows[0];
}

function expectedSchema(table: string): { triggers: string[]; roleCheckValidated: boolean } {
  return {
    triggers: [
      `after_delete ON ${table}`,
      `after_write ON ${table}`,
      `before_write ON ${table}`,
      `label_moved ON ${table}_labels`,
    ],
    roleCheckValidated: true,
  };
}

const UP_TO_DATE: MigrationReport = {
  createdTable: false,
  addedColumns: [],
  createdObjects: [],
  converted: [],
  unconverted: [],
  versionedRows: 0,
  addedConstraint: false,
  constraintValidated: true,
  droppedColumns: [],
};

/** Log lines that tell of a deadlock, a retry or a failure. */
function trouble(lines: LogLine[]): LogLine[] {
  return lines.filter((l) => l.level === 'warn' || l.level === 'error');
}

describe('migrate() with replicas starting together', () => {
  it(`lets ${REPLICAS} replicas migrate a fresh database at once: one creates everything, the others find it done`, async () => {
    const table = freshTable();
    const app = `${table}_r`;
    const replicas = Array.from({ length: REPLICAS }, (_, i) => replica(`${app}${i}`, table));
    // Every migration reaches the migration lock before any of them may go on.
    const holder = await session(`${table}_holder`);
    await holder.query('SELECT pg_advisory_lock(hashtext($1))', [`mcp-prompt-kit:public.${table}`]);
    // Each replica reads as soon as its own migration returns, while the others may still be migrating.
    const migrations = Promise.all(
      replicas.map(async (r) => ({ report: await r.store.migrate(), first: await r.store.list() })),
    );
    await waitingForLock(`${app}%`, REPLICAS);
    await holder.query('SELECT pg_advisory_unlock(hashtext($1))', [`mcp-prompt-kit:public.${table}`]);
    const started = await migrations;
    expect(started.map((s) => s.first)).toEqual(Array.from({ length: REPLICAS }, () => []));
    const reports = started.map((s) => s.report);

    expect(reports.filter((r) => r.createdTable)).toHaveLength(1);
    expect(reports.filter((r) => !r.createdTable)).toEqual(Array.from({ length: REPLICAS - 1 }, () => UP_TO_DATE));
    const creator = reports.findIndex((r) => r.createdTable);
    expect(await ddlBy(`${app}${creator}`)).toContain('CREATE TABLE');
    expect(await ddlBy(`${app}%`)).toEqual(await ddlBy(`${app}${creator}`));
    expect(replicas.flatMap((r) => trouble(r.lines))).toEqual([]);
    expect(await schemaOf(table)).toEqual(expectedSchema(table));
    await replicas[0]!.store.put(prompt('greet'));
    expect(await Promise.all(replicas.map(async (r) => (await r.store.get('greet'))?.version))).toEqual(
      Array.from({ length: REPLICAS }, () => 1),
    );
  });

  it(`lets ${REPLICAS} replicas migrate an up-to-date table at once with no DDL, no migration lock and no lock beyond a read's`, async () => {
    const table = freshTable();
    await replica(`${table}_setup`, table).store.migrate();
    const app = `${table}_r`;
    const replicas = Array.from({ length: REPLICAS }, (_, i) => replica(`${app}${i}`, table));
    // EXCLUSIVE conflicts with every lock mode but ACCESS SHARE (a read's): anything more, or the migration lock,
    // leaves a replica waiting.
    const holder = await session(`${table}_holder`);
    await holder.query('BEGIN');
    await holder.query(
      `LOCK TABLE ${table}, ${table}_versions, ${table}_labels, ${table}_label_history IN EXCLUSIVE MODE`,
    );
    await holder.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`mcp-prompt-kit:public.${table}`]);

    const started = Promise.all(
      replicas.map(async (r) => ({ report: await r.store.migrate(), first: await r.store.list() })),
    );
    expect(await lockWaitDuring(`${app}%`, started)).toBeUndefined();
    const results = await started;
    await holder.query('ROLLBACK');

    expect(results).toEqual(Array.from({ length: REPLICAS }, () => ({ report: UP_TO_DATE, first: [] })));
    expect(await ddlBy(`${app}%`)).toEqual([]);
    expect(replicas.flatMap((r) => trouble(r.lines))).toEqual([]);
  });

  it('serves the first reads of every replica while one migrates an older schema, with readers holding locks on both sides', async () => {
    const table = freshTable();
    const setup = replica(`${table}_setup`, table).store;
    await setup.migrate();
    await setup.put(prompt('one'));
    await setup.put(prompt('two'));
    // An older schema: no role constraint (ACCESS EXCLUSIVE to add), no label trigger (a lock on the labels table).
    await admin.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_role_check`);
    await admin.query(`DROP TRIGGER label_moved ON ${table}_labels`);

    // One reader holds the prompt table, another the labels and versions (a replica's read takes them in that order).
    const first = await session(`${table}_first_reader`);
    const second = await session(`${table}_second_reader`);
    await first.query('BEGIN');
    await first.query(`SELECT count(*) FROM ${table}`);
    await second.query('BEGIN');
    await second.query(`SELECT count(*) FROM ${table}_labels l JOIN ${table}_versions v USING (name, version)`);

    const migrator = replica(`${table}_migrator`, table);
    const migrated = outcome(migrator.store.migrate());
    await waitingForLock(`${table}_migrator`);
    // Another replica starting now migrates too (it waits for the first migration), then reads.
    const starter = replica(`${table}_starter`, table);
    const starting = outcome(
      starter.store.migrate().then(async (report) => ({ report, list: await starter.store.list() })),
    );
    // A replica already running reads while the migration waits.
    const running = replica(`${table}_running`, table);
    const reads = outcome(
      Promise.all([running.store.list(), running.store.get('one'), running.store.list({ label: 'latest' })]),
    );
    await waitingForLock(`${table}_starter`);
    await waitingForLock(`${table}_running`);
    // The second reader now wants the prompt table, queued behind the migration that waits for the first reader.
    const secondRead = outcome(second.query(`SELECT count(*)::int AS n FROM ${table}`));
    await waitingForLock(`${table}_second_reader`);
    // The first reader goes on to everything a replica reads: the migration holds nothing it needs.
    const firstRead =
      await first.query(`SELECT count(*)::int AS n FROM ${table}_labels l JOIN ${table}_versions v USING (name, version)
      UNION ALL SELECT count(*)::int FROM ${table} WHERE messages IS NULL`);
    expect(firstRead.rows.map((r) => r.n)).toEqual([2, 0]);
    await first.query('COMMIT');

    const report = valueOf(await migrated);
    expect(valueOf(await secondRead).rows[0].n).toBe(2);
    await second.query('COMMIT');
    expect(report).toMatchObject({
      addedConstraint: true,
      constraintValidated: true,
      createdObjects: [`label_moved ON "public"."${table}_labels"`],
    });
    const started = valueOf(await starting);
    expect(started.report).toEqual(UP_TO_DATE);
    expect(started.list.map((e) => e.name)).toEqual(['one', 'two']);
    const [list, one, latest] = valueOf(await reads);
    expect(list.map((e) => e.name)).toEqual(['one', 'two']);
    expect(one?.version).toBe(1);
    expect(latest.map((e) => e.name)).toEqual(['one', 'two']);
    expect([...trouble(migrator.lines), ...trouble(starter.lines), ...trouble(running.lines)]).toEqual([]);
    expect(await schemaOf(table)).toEqual(expectedSchema(table));
    expect(await ddlBy(`${table}_starter`)).toEqual([]);
  });
});

describe('migrate() on a table that lacks something', () => {
  it('runs only the DDL that is missing: a dropped trigger, a function left from an older definition', async () => {
    const table = freshTable();
    const s = replica(`${table}_r`, table).store;
    await s.migrate();
    expect(await ddlBy(`${table}_r`)).toContain('CREATE TABLE');
    await admin.query(`DELETE FROM ddl_log WHERE app = $1`, [`${table}_r`]);
    await admin.query(`DROP TRIGGER after_delete ON ${table}`);
    await admin.query(
      `CREATE OR REPLACE FUNCTION ${table}_after_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
    );

    const report = await s.migrate();
    expect(report).toEqual({
      ...UP_TO_DATE,
      createdObjects: [`"public"."${table}_after_write"()`, `after_delete ON "public"."${table}"`],
    });
    expect(await ddlBy(`${table}_r`)).toEqual(['CREATE FUNCTION', 'CREATE TRIGGER', 'COMMENT', 'COMMENT']);
    expect(await s.migrate()).toEqual(UP_TO_DATE);
    expect(await ddlBy(`${table}_r`)).toHaveLength(4);
    // The restored definitions work: a put makes a version (after_write), a delete removes its labels (after_delete).
    await s.put(prompt('back'));
    expect(await s.labels('back')).toEqual({ production: 1, latest: 1 });
    await s.delete('back');
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM ${table}_labels`);
    expect(rows[0].n).toBe(0);
  });

  it('states every function and trigger again once when they carry no fingerprint (made by an earlier release)', async () => {
    const table = freshTable();
    const s = replica(`${table}_r`, table).store;
    await s.migrate();
    await admin.query(`DO $$ DECLARE r record; BEGIN
      FOR r IN SELECT p.oid::regprocedure AS f FROM pg_proc p WHERE p.proname LIKE '${table}\\_%' LOOP EXECUTE format('COMMENT ON FUNCTION %s IS NULL', r.f); END LOOP;
      FOR r IN SELECT t.tgname, t.tgrelid::regclass AS rel FROM pg_trigger t WHERE t.tgrelid IN ('${table}'::regclass, '${table}_labels'::regclass) AND NOT t.tgisinternal
        LOOP EXECUTE format('COMMENT ON TRIGGER %I ON %s IS NULL', r.tgname, r.rel); END LOOP; END $$`);
    const report = await s.migrate();
    expect(report.createdObjects).toHaveLength(9);
    expect(await s.migrate()).toEqual(UP_TO_DATE);
  });
});
