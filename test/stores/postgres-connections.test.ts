/**
 * Lost connections, for real: backends terminated in the middle of a write, a server that refuses connections, a
 * session that stops answering. None of them may take the process down (an unheard `error` event would, and vitest
 * fails the run on it); each is reported, and the next operation works.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PromptError, PromptRegistry, syncRegistry } from '../../src/index.js';
import type { RegistryChangeEvent } from '../../src/index.js';
import { createPostgresPromptStore } from '../../src/stores/postgres/store.js';
import type { PostgresPromptStore } from '../../src/stores/postgres/store.js';
import type { PostgresPromptStoreOptions } from '../../src/stores/postgres/store-options.js';
import type { PgListenerClient } from '../../src/stores/postgres/types.js';
import { nextEvent, prompt } from './contract.js';
import { testDatabase } from './pg-database.js';
import { startRelay } from './pg-proxy.js';
import type { TestDatabase } from './pg-server.js';
import { captureLogs } from '../support/logs.js';
import { EVENT_WAIT_MS } from '../support/wait.js';

let db: TestDatabase;
let admin: pg.Pool;
let tables = 0;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  db = await testDatabase();
  admin = db.pool({ max: 3 });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await db?.close();
});

function freshTable(): string {
  return `conn_${++tables}`;
}

function store(options: Partial<PostgresPromptStoreOptions> & { pool: pg.Pool; table: string }): PostgresPromptStore {
  const created = createPostgresPromptStore(options);
  cleanups.push(() => created.close());
  return created;
}

/** A pool of its own with no `error` handler: anything that reaches it fails the run. */
function unguardedPool(): pg.Pool {
  return db.pool({ max: 2 });
}

/** A plain session (closed after the test). */
async function session(url = db.url): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  cleanups.push(() => client.end().catch(() => undefined));
  return client;
}

/** The backend waiting for a lock `blocker` holds, once there is one. */
async function blockedBy(blocker: pg.Client): Promise<number> {
  const blockerPid = (await blocker.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
  let pid: number | undefined;
  await expect
    .poll(
      async () => {
        const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [
          blockerPid,
        ]);
        pid = rows[0]?.pid as number | undefined;
        return pid;
      },
      { timeout: EVENT_WAIT_MS, interval: 20 },
    )
    .toBeTypeOf('number');
  return pid!;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

type Write = (s: PostgresPromptStore) => Promise<unknown>;

describe('a connection lost in the middle of a write', () => {
  const table = (name: string): string => `"public"."${name}"`;
  // [operation, what the blocker holds, the write, what it returns when retried, SQL run first (work for it to do)]
  const cases: [string, (t: string) => string, Write, unknown, ((t: string) => string)?][] = [
    [
      'put',
      (t) => `LOCK TABLE ${table(t)} IN SHARE MODE`,
      (s) => s.put(prompt('held', 'v2 {{who}}')),
      { name: 'held', version: 2 },
    ],
    [
      'setLabel',
      (t) => `LOCK TABLE ${table(`${t}_labels`)} IN SHARE MODE`,
      (s) => s.setLabel('held', 'staging', 1),
      null,
    ],
    [
      'deleteLabel',
      (t) => `LOCK TABLE ${table(`${t}_labels`)} IN SHARE MODE`,
      (s) => s.deleteLabel('held', 'production'),
      true,
    ],
    ['delete', (t) => `LOCK TABLE ${table(t)} IN SHARE MODE`, (s) => s.delete('held'), true],
    // A second version (written in SQL) gives the rollback a move to undo.
    [
      'rollback',
      (t) => `LOCK TABLE ${table(`${t}_labels`)} IN SHARE MODE`,
      (s) => s.rollback('held', 'production'),
      1,
      (t) => `UPDATE ${table(t)} SET description = 'second' WHERE name = 'held'`,
    ],
    // An up-to-date table needs no migration lock: a trigger dropped by hand gives this one work to do.
    [
      'migrate',
      (t) => `SELECT pg_advisory_xact_lock(hashtext('mcp-prompt-kit:public.${t}'))`,
      (s) => s.migrate(),
      { createdTable: false, createdObjects: [expect.stringMatching(/^after_delete ON /)] },
      (t) => `DROP TRIGGER after_delete ON ${table(t)}`,
    ],
  ];

  it.each(cases)(
    '%s rejects with a logged PromptError, destroys its client, and the same write then succeeds',
    async (operation, lock, write, retried, stale) => {
      const t = freshTable();
      const pool = unguardedPool();
      const { logger, lines } = captureLogs();
      const s = store({ pool, table: t, logger });
      await s.migrate();
      await s.put(prompt('held', 'v1 {{who}}'));
      if (stale !== undefined) await admin.query(stale(t));

      // Another session holds what the write needs, so the write waits inside its transaction; then its backend dies.
      const blocker = await session();
      await blocker.query('BEGIN');
      await blocker.query(lock(t));
      const pending = rejection(write(s));
      const pid = await blockedBy(blocker);
      const clientsBefore = pool.totalCount;
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      const error = await pending;
      await blocker.query('ROLLBACK');

      expect(error).toBeInstanceOf(PromptError);
      expect((error as PromptError).code).toBe('INTERNAL_ERROR');
      expect((error as PromptError).toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
      expect((error as PromptError).message).toContain(`${operation}`);
      expect(lines).toContainEqual({
        level: 'error',
        fields: expect.objectContaining({
          event: 'prompt_store_write_failed',
          table: `public.${t}`,
          operation,
          sqlState: '57P01',
        }),
      });
      // Destroyed, not handed out again.
      expect(pool.totalCount).toBe(clientsBefore - 1);
      const pids = await Promise.all([
        pool.query('SELECT pg_backend_pid() AS pid'),
        pool.query('SELECT pg_backend_pid() AS pid'),
      ]);
      expect(pids.map((r) => r.rows[0].pid)).not.toContain(pid);

      // Nothing of the failed write stayed; the same write now succeeds.
      const again = await write(s);
      if (typeof retried === 'object' && retried !== null) expect(again).toMatchObject(retried);
      else expect(again).toBe(retried);
    },
    30_000,
  );

  it('rejects with a logged PromptError when no connection can be had, and works once one can', async () => {
    const t = freshTable();
    await store({ pool: admin, table: t }).migrate();
    const { logger, lines } = captureLogs();
    // A pool with no connection yet: the put has to open one while the server refuses them.
    const s = store({ pool: unguardedPool(), table: t, logger });
    const name = new URL(db.url).pathname.slice(1);
    const other = await session(db.adminUrl);
    await other.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    try {
      const error = await rejection(s.put(prompt('refused')));
      expect((error as PromptError).code).toBe('INTERNAL_ERROR');
      expect((error as PromptError).message).toMatch(/not currently accepting connections/);
      expect(lines).toContainEqual({
        level: 'error',
        fields: expect.objectContaining({ event: 'prompt_store_write_failed', operation: 'put', prompt: 'refused' }),
      });
    } finally {
      await other.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }
    expect((await s.put(prompt('refused'))).version).toBe(1);
  });
});

describe('the change listener', () => {
  function change(registry: PromptRegistry, name: string): Promise<RegistryChangeEvent> {
    return nextEvent<RegistryChangeEvent>(
      registry.onChange.bind(registry),
      (e) => e.names.includes(name),
      EVENT_WAIT_MS,
    );
  }

  async function replica(s: PostgresPromptStore): Promise<PromptRegistry> {
    const registry = new PromptRegistry();
    const sync = await syncRegistry(s, registry, { batchMs: 0 });
    cleanups.push(() => sync.close());
    return registry;
  }

  async function text(registry: PromptRegistry, name: string): Promise<unknown> {
    const result = await registry.getPrompt(name, { who: 'Ada' });
    return result.messages[0]?.content.type === 'text' ? result.messages[0].content.text : undefined;
  }

  /** Direct sessions for LISTEN, as behind a pooler; each one recorded with when it ends. */
  function direct(url = db.url): {
    connect: () => Promise<PgListenerClient>;
    clients: pg.Client[];
    ended: Promise<void>[];
  } {
    const clients: pg.Client[] = [];
    const ended: Promise<void>[] = [];
    return {
      clients,
      ended,
      connect: async () => {
        const client = new pg.Client({ connectionString: url });
        clients.push(client);
        ended.push(new Promise((resolve) => client.once('end', () => resolve())));
        // Not awaited: a session behind a frozen relay ends only once the relay closes.
        cleanups.push(() => void client.end().catch(() => undefined));
        await client.connect();
        return client;
      },
    };
  }

  it('keeps retrying while the server refuses connections, then listens again and reloads what it missed', async () => {
    const t = freshTable();
    const writer = store({ pool: admin, table: t });
    await writer.migrate();
    await writer.put(prompt('steady', 'v1 {{who}}'));
    const { logger, events } = captureLogs();
    const listener = direct();
    const registry = await replica(
      store({ pool: admin, table: t, logger, listener: listener.connect, reconnect: { minMs: 10, maxMs: 50 } }),
    );
    const name = new URL(db.url).pathname.slice(1);
    const edit = await session();
    const other = await session(db.adminUrl);
    await other.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    try {
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1`, [
        `LISTEN "mcp_prompt_kit.public.${t}"`,
      ]);
      await expect
        .poll(() => events().filter((e) => e === 'prompt_listener_connect_failed').length, { timeout: EVENT_WAIT_MS })
        .toBeGreaterThanOrEqual(2);
      await edit.query(`UPDATE ${t} SET messages = '[{"role":"user","content":"v2 {{who}}"}]' WHERE name = 'steady'`);
      expect(await text(registry, 'steady')).toBe('v1 Ada');
    } finally {
      await other.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }
    await expect.poll(() => text(registry, 'steady'), { timeout: EVENT_WAIT_MS }).toBe('v2 Ada');
    expect(await text(registry, 'steady')).toBe('v2 Ada');
    expect(events()).toEqual(
      expect.arrayContaining(['prompt_listener_lost', 'prompt_listener_connect_failed', 'prompt_listener_recovered']),
    );
  });

  it('treats a LISTEN that fails on a fresh connection as a lost connection, and listens on the next one', async () => {
    const t = freshTable();
    const writer = store({ pool: admin, table: t });
    await writer.migrate();
    const { logger, lines, events } = captureLogs();
    const listener = direct();
    let calls = 0;
    const connect = async (): Promise<PgListenerClient> => {
      const client = (await listener.connect()) as pg.Client;
      // The first session comes back inside a failed transaction (as a dirty pooled connection would): LISTEN fails.
      if (++calls === 1) {
        await client.query('BEGIN');
        await client.query('SELECT 1 / 0').catch(() => undefined);
      }
      return client;
    };
    const registry = await replica(
      store({ pool: admin, table: t, logger, listener: connect, reconnect: { minMs: 10, maxMs: 50 } }),
    );
    await expect.poll(events, { timeout: EVENT_WAIT_MS }).toContain('prompt_listener_recovered');
    expect(lines).toContainEqual({
      level: 'warn',
      fields: expect.objectContaining({ event: 'prompt_listener_lost', sqlState: '25P02' }),
    });
    const added = change(registry, 'after');
    await writer.put(prompt('after'));
    await added;
    expect(calls).toBe(2);
  });

  it('treats a heartbeat the server answers with an error as a lost connection', async () => {
    const t = freshTable();
    const writer = store({ pool: admin, table: t });
    await writer.migrate();
    const { logger, lines, events } = captureLogs();
    const listener = direct();
    const registry = await replica(
      store({
        pool: admin,
        table: t,
        logger,
        listener: listener.connect,
        heartbeatMs: 200,
        reconnect: { minMs: 10, maxMs: 50 },
      }),
    );
    // The listening session falls into a failed transaction: its next `SELECT 1` is refused.
    const first = listener.clients.at(-1)!;
    await first.query('BEGIN');
    await first.query('SELECT 1 / 0').catch(() => undefined);
    await expect.poll(events, { timeout: EVENT_WAIT_MS }).toContain('prompt_listener_recovered');
    expect(lines).toContainEqual({
      level: 'warn',
      fields: expect.objectContaining({ event: 'prompt_listener_lost', sqlState: '25P02' }),
    });
    expect(listener.clients.length).toBeGreaterThanOrEqual(2);
    const added = change(registry, 'after');
    await writer.put(prompt('after'));
    await added;
  });

  it('notices a session that stops answering (a missed heartbeat), reconnects and reloads', async () => {
    const t = freshTable();
    const writer = store({ pool: admin, table: t });
    await writer.migrate();
    await writer.put(prompt('steady', 'v1 {{who}}'));
    const relay = await startRelay(db.url);
    cleanups.push(() => relay.close());
    const { logger, events } = captureLogs();
    const listener = direct(relay.url);
    const registry = await replica(
      store({
        pool: admin,
        table: t,
        logger,
        listener: listener.connect,
        heartbeatMs: 300,
        reconnect: { minMs: 10, maxMs: 50 },
      }),
    );
    const before = relay.accepted;
    relay.freeze();
    // Made while the listening session is silent: only the reload after reconnecting can bring it.
    await writer.put(prompt('steady', 'v2 {{who}}'));
    await expect.poll(events, { timeout: EVENT_WAIT_MS }).toContain('prompt_listener_recovered');
    expect(relay.accepted).toBeGreaterThan(before);
    await expect.poll(() => text(registry, 'steady'), { timeout: EVENT_WAIT_MS }).toBe('v2 Ada');
  });

  it('gives up on a LISTEN that never answers (a session frozen before it listens) and listens on a new one', async () => {
    const t = freshTable();
    const writer = store({ pool: admin, table: t });
    await writer.migrate();
    await writer.put(prompt('steady', 'v1 {{who}}'));
    const relay = await startRelay(db.url);
    cleanups.push(() => relay.close());
    const { logger, events } = captureLogs();
    const listener = direct(relay.url);
    let sessions = 0;
    const s = store({
      pool: admin,
      table: t,
      logger,
      // The first session goes silent once connected: its LISTEN is sent and never answered.
      listener: async () => {
        const client = await listener.connect();
        if (++sessions === 1) relay.freeze();
        return client;
      },
      heartbeatMs: 300,
      reconnect: { minMs: 10, maxMs: 50 },
    });
    // Reads wait for the first LISTEN to finish: they would wait forever for one that is never answered.
    const registry = await replica(s);
    expect(events()).toContain('prompt_listener_lost');
    await expect.poll(events, { timeout: EVENT_WAIT_MS }).toContain('prompt_listener_recovered');
    expect(sessions).toBe(2);
    const changed = change(registry, 'steady');
    await writer.put(prompt('steady', 'v2 {{who}}'));
    await changed;
    expect(await text(registry, 'steady')).toBe('v2 Ada');
  });

  it('gives up on a connection attempt that never completes, listens on a new one, and closes the late session', async () => {
    const t = freshTable();
    const writer = store({ pool: admin, table: t });
    await writer.migrate();
    await writer.put(prompt('steady', 'v1 {{who}}'));
    const { logger, events } = captureLogs();
    const listener = direct();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let late: Promise<PgListenerClient> | undefined;
    const s = store({
      pool: admin,
      table: t,
      logger,
      // The first attempt completes only when the test says so, long after the store gave up on it.
      listener: () => {
        if (late !== undefined) return listener.connect();
        late = gate.then(() => listener.connect());
        return late;
      },
      heartbeatMs: 300,
      reconnect: { minMs: 10, maxMs: 50 },
    });
    const registry = await replica(s);
    expect(events()).toContain('prompt_listener_connect_failed');
    await expect.poll(events, { timeout: EVENT_WAIT_MS }).toContain('prompt_listener_recovered');
    open();
    const lateClient = await late!;
    await listener.ended[listener.clients.indexOf(lateClient as pg.Client)];
    const changed = change(registry, 'steady');
    await writer.put(prompt('steady', 'v2 {{who}}'));
    await changed;
    expect(await text(registry, 'steady')).toBe('v2 Ada');
  });

  it('closes a session that connects after the store stopped listening', async () => {
    const t = freshTable();
    const writer = store({ pool: admin, table: t });
    await writer.migrate();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const listener = direct();
    const s = createPostgresPromptStore({
      pool: admin,
      table: t,
      listener: async () => {
        await gate;
        return listener.connect();
      },
    });
    const unwatch = s.watch(() => {});
    await s.close();
    unwatch();
    open();
    await expect.poll(() => listener.ended.length, { timeout: EVENT_WAIT_MS }).toBe(1);
    await listener.ended[0];
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND query LIKE $1`,
      [`%${t}%`],
    );
    expect(rows[0].n).toBe(0);
  });
});
