import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { PromptError, PromptRegistry, syncRegistry } from '../../src/index.js';
import type { PromptStore, RegistryChangeEvent, RegistrySync } from '../../src/index.js';
import { createPostgresPromptStore } from '../../src/stores/postgres/store.js';
import type { PostgresPromptStore } from '../../src/stores/postgres/store.js';
import type { PostgresPromptStoreOptions } from '../../src/stores/postgres/store-options.js';
import { nextEvent, prompt } from './contract.js';
import { testDatabase } from './pg-database.js';
import type { TestDatabase } from './pg-server.js';
import { captureLogs } from '../support/logs.js';
import { EVENT_WAIT_MS } from '../support/wait.js';

let db: TestDatabase;
let poolA: pg.Pool;
let poolB: pg.Pool;
let tables = 0;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  db = await testDatabase();
  poolA = db.pool({ max: 4 });
  poolB = db.pool({ max: 4 });
  poolA.on('error', () => {});
  poolB.on('error', () => {});
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await db?.close();
});

function freshTable(): string {
  return `prompts_${++tables}`;
}

function store(pool: pg.Pool, table: string, options: Partial<PostgresPromptStoreOptions> = {}): PostgresPromptStore {
  const created = createPostgresPromptStore({ pool, table, ...options });
  cleanups.push(() => created.close());
  return created;
}

async function replica(
  source: PostgresPromptStore,
  label?: string,
  batchMs?: number,
): Promise<{ registry: PromptRegistry; sync: RegistrySync }> {
  const registry = new PromptRegistry();
  const sync = await syncRegistry(source, registry, {
    ...(label === undefined ? {} : { label }),
    ...(batchMs === undefined ? {} : { batchMs }),
  });
  cleanups.push(() => sync.close());
  return { registry, sync };
}

/** Resolves when `registry` next changes in a way `matches` accepts. */
function change(
  registry: PromptRegistry,
  matches: (event: RegistryChangeEvent) => boolean = () => true,
): Promise<RegistryChangeEvent> {
  return nextEvent<RegistryChangeEvent>(registry.onChange.bind(registry), matches, EVENT_WAIT_MS);
}

async function text(registry: PromptRegistry, name: string): Promise<unknown> {
  const result = await registry.getPrompt(name, { who: 'Ada' });
  return result.messages[0]?.content.type === 'text' ? result.messages[0].content.text : undefined;
}

/** A store whose reads are counted (and how many run at once), passing everything through to `inner`. */
function counted(inner: PostgresPromptStore): {
  store: PromptStore;
  stats: { list: number; get: number; inFlight: number; maxInFlight: number };
} {
  const stats = { list: 0, get: 0, inFlight: 0, maxInFlight: 0 };
  const track = async <T>(kind: 'list' | 'get', read: () => Promise<T>): Promise<T> => {
    stats[kind]++;
    stats.maxInFlight = Math.max(stats.maxInFlight, ++stats.inFlight);
    try {
      return await read();
    } finally {
      stats.inFlight--;
    }
  };
  return {
    stats,
    store: {
      get: (name, options) => track('get', () => inner.get(name, options)),
      list: (options) => track('list', () => inner.list(options)),
      put: (definition) => inner.put(definition),
      delete: (name) => inner.delete(name),
      watch: (callback) => inner.watch(callback),
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('createPostgresPromptStore', () => {
  it('refuses table, schema and label names it cannot use safely, naming the option', () => {
    expect(() => createPostgresPromptStore({ pool: poolA, table: 'prompts; DROP TABLE x' })).toThrow(
      /table must be a lower-case identifier/,
    );
    expect(() => createPostgresPromptStore({ pool: poolA, schema: 'Tenant' })).toThrow(
      /schema must be a lower-case identifier/,
    );
    expect(() => createPostgresPromptStore({ pool: poolA, table: 'x'.repeat(41) })).toThrow(/at most 40 characters/);
    expect(() => createPostgresPromptStore({ pool: poolA, label: 'a,b' })).toThrow(/label must be/);
    expect(() => createPostgresPromptStore({ pool: {} as pg.Pool })).toThrow(/pool must be a pg.Pool/);
    expect(() => createPostgresPromptStore({ pool: poolA, reconnect: { minMs: 0 } })).toThrow(/reconnect.minMs/);
  });

  it('says how soon a change reaches watchers: two heartbeats to notice a dead listener, then the longest reconnect', () => {
    expect(createPostgresPromptStore({ pool: poolA }).changeDelayMs).toBe(2 * 10_000 + 5_000);
    const tuned = createPostgresPromptStore({ pool: poolA, heartbeatMs: 2_000, reconnect: { maxMs: 1_000 } });
    expect(tuned.changeDelayMs).toBe(2 * 2_000 + 1_000);
  });
});

describe('migrate()', () => {
  it('creates the tables once: a second run reports nothing to do', async () => {
    const table = freshTable();
    const s = store(poolA, table);
    const first = await s.migrate();
    expect(first).toMatchObject({
      createdTable: true,
      addedConstraint: true,
      constraintValidated: true,
      converted: [],
      unconverted: [],
    });
    expect(first.createdObjects).toEqual(
      expect.arrayContaining([
        `"public"."${table}_versions"`,
        `"public"."${table}_label_history_name_idx"`,
        `label_moved ON "public"."${table}_labels"`,
      ]),
    );
    const second = await s.migrate();
    expect(second).toEqual({
      createdTable: false,
      addedColumns: [],
      createdObjects: [],
      converted: [],
      unconverted: [],
      versionedRows: 0,
      addedConstraint: false,
      constraintValidated: true,
      droppedColumns: [],
    });
  });

  it('converts a legacy table (content string, missing role) in place and reports every row', async () => {
    const table = freshTable();
    await poolA.query(`CREATE TABLE ${table} (id serial PRIMARY KEY, name varchar(255) NOT NULL, description text,
      content text NOT NULL, role varchar(20), created_at timestamptz DEFAULT now())`);
    await poolA.query(`INSERT INTO ${table} (name, description, content, role) VALUES
      ('greet', 'Greets', 'Say hello to {{who}}', 'user'), ('ask', NULL, 'Ask {{who}} a question', NULL),
      ('old', NULL, 'Be brief with {{who}}', 'system')`);
    const { logger, lines } = captureLogs();
    const s = store(poolA, table, { logger });
    const report = await s.migrate();
    expect(report.addedColumns).toEqual(expect.arrayContaining(['messages', 'arguments', 'version', 'updated_at']));
    expect(report.converted).toEqual([
      { name: 'ask', messages: 1 },
      { name: 'greet', messages: 1 },
    ]);
    expect(report.unconverted).toEqual([{ name: 'old', reason: expect.stringContaining('system') }]);
    expect(report.droppedColumns).toEqual([]);

    expect((await s.list()).map((e) => e.name)).toEqual(['ask', 'greet']);
    const ask = await s.get('ask');
    expect(ask?.definition.messages).toEqual([
      { role: 'assistant', content: { type: 'text', text: 'Ask {{who}} a question' } },
    ]);
    expect((await s.get('greet'))?.definition.description).toBe('Greets');
    const error = await rejection(s.get('old', { label: 'latest' }));
    expect(error).toBeInstanceOf(PromptError);
    expect((error as PromptError).toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    expect(lines).toContainEqual({
      level: 'error',
      fields: expect.objectContaining({
        event: 'prompt_store_invalid_row',
        prompt: 'old',
        reason: expect.stringContaining('legacy'),
      }),
    });

    // Not converted means not served, and never unknown: a replica of any label withholds it (-32603, logged).
    for (const label of ['production', 'staging', 'latest']) {
      const { registry } = await replica(s, label);
      expect(
        registry.list().prompts.map((p) => p.name),
        label,
      ).not.toContain('old');
      const withheld = await rejection(registry.getPrompt('old', { who: 'x' }));
      expect((withheld as PromptError).toJsonRpcError(), label).toEqual({ code: -32603, message: 'Internal error' });
      expect(lines).toContainEqual({
        level: 'error',
        fields: expect.objectContaining({
          event: 'prompt_store_invalid_row',
          prompt: 'old',
          label,
          reason: expect.stringContaining('legacy'),
        }),
      });
      const error = await rejection(s.get('old', { label }));
      expect((error as PromptError).toJsonRpcError(), label).toEqual({ code: -32603, message: 'Internal error' });
    }
    expect(await s.get('greet', { label: 'staging' })).toBeUndefined();

    const again = await s.migrate({ systemRole: 'user' });
    expect(again.converted).toEqual([{ name: 'old', messages: 1 }]);
    expect(again.droppedColumns).toEqual(['content', 'role']);
    expect(again.constraintValidated).toBe(true);
    expect((await s.get('old'))?.definition.messages[0]?.role).toBe('user');
  });

  it('records rows written before the store managed the table as their first version, labelled production', async () => {
    const table = freshTable();
    await poolA.query(`CREATE TABLE ${table} (name text PRIMARY KEY, description text, messages jsonb)`);
    await poolA.query(
      `INSERT INTO ${table} VALUES ('one', 'First', '[{"role":"user","content":"one"}]'), ('two', NULL, '[{"role":"assistant","content":"two"}]')`,
    );
    const s = store(poolA, table);
    const report = await s.migrate();
    expect(report).toMatchObject({ createdTable: false, versionedRows: 2, converted: [], constraintValidated: true });
    expect((await s.list()).map((e) => [e.name, e.version])).toEqual([
      ['one', 1],
      ['two', 1],
    ]);
    expect(await s.labels('one')).toEqual({ production: 1, latest: 1 });
    expect((await s.migrate()).versionedRows).toBe(0);
  });

  it('lets replicas that start together migrate one after the other', async () => {
    const table = freshTable();
    const reports = await Promise.all([store(poolA, table).migrate(), store(poolB, table).migrate()]);
    expect(reports.map((r) => r.createdTable).sort()).toEqual([false, true]);
  });

  it('creates its schema when asked for one, keeping its prompts apart from a same-named table elsewhere', async () => {
    const table = freshTable();
    const here = store(poolA, table);
    const there = store(poolA, table, { schema: `tenant_${tables}` });
    await here.migrate();
    await there.migrate();
    await there.put(prompt('only-there'));
    expect(await here.list()).toEqual([]);
    expect((await there.list()).map((e) => e.name)).toEqual(['only-there']);
  });

  it('leaves the table as it was when the migration fails', async () => {
    const table = freshTable();
    await poolA.query(`CREATE TABLE ${table} (name text, content text, role text)`);
    await poolA.query(`INSERT INTO ${table} VALUES ('twice', 'a', 'user'), ('twice', 'b', 'user')`);
    const s = store(poolA, table);
    await expect(s.migrate()).rejects.toThrow(/unique|duplicate/i);
    const { rows } = await poolA.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY 1`,
      [table],
    );
    expect(rows.map((r: { column_name: string }) => r.column_name)).toEqual(['content', 'name', 'role']);
  });

  it('refuses a role other than user or assistant written by SQL (CHECK constraint)', async () => {
    const table = freshTable();
    await store(poolA, table).migrate();
    const error = await rejection(
      poolA.query(`INSERT INTO ${table} (name, messages) VALUES ('x', '[{"role":"system","content":"hi"}]')`),
    );
    expect((error as { code?: string }).code).toBe('23514');
  });
});

describe('rows that break the definition rules', () => {
  it('are never served: left out of list, get fails with a generic -32603, the log names the row', async () => {
    const table = freshTable();
    const { logger, lines } = captureLogs();
    const s = store(poolA, table, { logger });
    await s.migrate();
    await s.put(prompt('fine'));
    await poolA.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_role_check`);
    await poolA.query(`INSERT INTO ${table} (name, messages) VALUES
      ('system-role', '[{"role":"system","content":"Be brief"}]'),
      ('not-an-array', '"Say hello"'),
      ('Bad Name', '[{"role":"user","content":"hi"}]')`);
    await poolA.query(
      `INSERT INTO ${table} (name, arguments, messages) VALUES ('bad-args', '{"who": true}', '[{"role":"user","content":"hi"}]')`,
    );

    expect((await s.list()).map((e) => e.name)).toEqual(['fine']);
    for (const name of ['system-role', 'not-an-array', 'Bad Name', 'bad-args']) {
      const error = await rejection(s.get(name));
      expect(error, name).toBeInstanceOf(PromptError);
      expect((error as PromptError).toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
      expect(lines).toContainEqual({
        level: 'error',
        fields: expect.objectContaining({
          event: 'prompt_store_invalid_row',
          table: `public.${table}`,
          prompt: name,
          reason: expect.any(String),
        }),
      });
    }
    const reasons = lines.filter((l) => l.fields['prompt'] === 'system-role').map((l) => String(l.fields['reason']));
    expect(reasons.join('\n')).toMatch(/system/);

    const { registry } = await replica(s);
    expect(registry.list().prompts.map((p) => p.name)).toEqual(['fine']);
    // From the first load on, a broken row is withheld on replicas: -32603, never "Unknown prompt".
    for (const name of ['system-role', 'not-an-array', 'bad-args', 'Bad Name']) {
      const withheld = await rejection(registry.getPrompt(name));
      expect((withheld as PromptError).toJsonRpcError(), name).toEqual({ code: -32603, message: 'Internal error' });
    }
    const gone = change(registry, (e) => e.type === 'remove');
    await poolA.query(
      `UPDATE ${table} SET messages = '[{"role":"system","content":"now broken"}]' WHERE name = 'fine'`,
    );
    expect((await gone).names).toEqual(['fine']);
    // Withheld, not unknown: replicas answer the broken row with a generic -32603, never "Unknown prompt".
    const error = await rejection(registry.getPrompt('fine', { who: 'x' }));
    expect((error as PromptError).toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
  });
});

describe('versions, labels and history', () => {
  it('makes every put and every SQL edit a new version; the served version is logged on each get', async () => {
    const table = freshTable();
    const { logger, lines } = captureLogs();
    const s = store(poolA, table, { logger });
    await s.migrate();
    expect((await s.put(prompt('edit', 'one {{who}}'))).version).toBe(1);
    expect((await s.put(prompt('edit', 'two {{who}}'))).version).toBe(2);
    expect((await s.put(prompt('edit', 'two {{who}}'))).version).toBe(2);
    await poolA.query(
      `UPDATE ${table} SET messages = '[{"role":"user","content":"three {{who}}"}]' WHERE name = 'edit'`,
    );
    const got = await s.get('edit');
    expect(got?.version).toBe(3);
    expect(lines).toContainEqual({
      level: 'info',
      fields: { event: 'prompt_store_get', prompt: 'edit', version: 3, label: 'production' },
    });
    const versions = await s.versions('edit');
    expect(versions.map((v) => [v.version, v.labels])).toEqual([
      [3, ['latest', 'production']],
      [2, []],
      [1, []],
    ]);
    expect(versions[0]!.createdBy).toBe('postgres');
  });

  it('moves labels, records every move with who and when, and rolls back: each step reaches a replica', async () => {
    const table = freshTable();
    const s = store(poolA, table);
    await s.migrate();
    await s.put(prompt('tone', 'v1 {{who}}'), { actor: 'ada' });
    await s.put(prompt('tone', 'v2 {{who}}'), { actor: 'bob' });
    const { registry } = await replica(store(poolB, table));
    expect(await text(registry, 'tone')).toBe('v2 Ada');

    const rolledBack = change(registry, (e) => e.names.includes('tone'));
    expect(await s.rollback('tone', 'production', { actor: 'carol' })).toBe(1);
    await rolledBack;
    expect(await text(registry, 'tone')).toBe('v1 Ada');
    expect(await s.labels('tone')).toEqual({ production: 1, latest: 2 });

    const forward = change(registry, (e) => e.names.includes('tone'));
    expect(await s.setLabel('tone', 'production', 2, { actor: 'dave' })).toBe(1);
    await forward;
    expect(await text(registry, 'tone')).toBe('v2 Ada');

    const history = await s.history('tone');
    expect(history.labelMoves.map((m) => [m.label, m.from, m.to, m.movedBy])).toEqual([
      ['production', 1, 2, 'dave'],
      ['production', 2, 1, 'carol'],
      ['production', 1, 2, 'bob'],
      ['production', null, 1, 'ada'],
    ]);
    expect(history.labelMoves[0]!.movedAt).toBeInstanceOf(Date);
    expect(history.versions.map((v) => [v.version, v.createdBy])).toEqual([
      [2, 'bob'],
      [1, 'ada'],
    ]);
    await expect(s.setLabel('tone', 'production', 9)).rejects.toMatchObject({ code: 'PROMPT_NOT_FOUND' });
    await expect(s.setLabel('tone', 'latest', 1)).rejects.toThrow(RangeError);
  });

  it('rolls back the move that finished while it waited for the label, not the move before it', async () => {
    const table = freshTable();
    const s = store(poolA, table);
    await s.migrate();
    for (const v of ['v1', 'v2', 'v3']) await s.put(prompt('tone', `${v} {{who}}`), { labels: [] });
    await s.setLabel('tone', 'production', 1);
    await s.setLabel('tone', 'production', 2);

    // A move to 3 holds the label's row, uncommitted, while the rollback starts.
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = (): void => {};
    const moving = new Promise<void>((resolve) => (holding = resolve));
    const move = s.transaction(async (tx) => {
      await tx.setLabel('tone', 'production', 3);
      holding();
      await held;
    });
    await moving;
    const rollback = s.rollback('tone', 'production', { actor: 'carol' });
    const waiting = async (): Promise<number> =>
      (
        await poolB.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      ).rows.length;
    await expect.poll(waiting, { timeout: EVENT_WAIT_MS }).toBe(1);
    release();
    await move;

    expect(await rollback).toBe(2);
    expect(await s.labels('tone')).toEqual({ production: 2, latest: 3 });
    const moves = (await s.history('tone')).labelMoves.filter((m) => m.label === 'production');
    expect(moves.map((m) => [m.from, m.to, m.movedBy === 'carol'])).toEqual([
      [3, 2, true],
      [2, 3, false],
      [1, 2, false],
      [null, 1, false],
    ]);
    await expect(s.rollback('tone', 'latest')).rejects.toThrow(
      "rollback: 'latest' always points to the newest version",
    );
  });

  it('reports the exact previous version to each of several concurrent moves of a label that did not exist', async () => {
    const table = freshTable();
    const s = store(poolA, table);
    await s.migrate();
    const movers = 4;
    for (let v = 1; v <= movers; v++) await s.put(prompt('moved', `v${v} {{who}}`), { labels: [] });
    const pool = db.pool({ max: movers });
    const mover = store(pool, table);
    // Another session holds a lock every move needs to write, so that all of them have read the (missing) label
    // before any can write it; then they go at once.
    const blocker = await pool.connect();
    const others = db.pool({ max: 1 });
    try {
      await blocker.query('BEGIN');
      await blocker.query(`LOCK TABLE ${table}_labels IN SHARE MODE`);
      const moves = Array.from({ length: movers - 1 }, (_, i) => mover.setLabel('moved', 'canary', i + 1));
      await expect
        .poll(
          async () =>
            (
              await others.query(
                `SELECT count(*)::int AS n FROM pg_locks WHERE relation = $1::regclass AND NOT granted`,
                [`${table}_labels`],
              )
            ).rows[0].n,
          {
            timeout: EVENT_WAIT_MS,
          },
        )
        .toBe(movers - 1);
      await blocker.query('COMMIT');
      const previous = await Promise.all(moves);
      // Each move saw what the one before it left: one saw nothing, the others each a different earlier move.
      const history = (await s.history('moved')).labelMoves.filter((m) => m.label === 'canary').reverse();
      expect(history.map((m) => m.from)).toEqual([null, history[0]!.to, history[1]!.to]);
      const byTarget = new Map(history.map((m) => [m.to, m.from]));
      expect(previous).toEqual([1, 2, 3].map((v) => byTarget.get(v)));
      expect(previous.filter((p) => p === null)).toHaveLength(1);
    } finally {
      blocker.release();
    }
  });

  it('serves a production and a staging registry from one database, each following its label', async () => {
    const table = freshTable();
    const s = store(poolA, table);
    await s.migrate();
    await s.put(prompt('plan', 'stable {{who}}'), { labels: ['production', 'staging'] });
    const production = await replica(store(poolB, table), 'production');
    const staging = await replica(store(poolB, table), 'staging');

    const staged = change(staging.registry, (e) => e.names.includes('plan'));
    await s.put(prompt('plan', 'trying {{who}}'), { labels: ['staging'] });
    await staged;
    expect(await text(staging.registry, 'plan')).toBe('trying Ada');
    expect(await text(production.registry, 'plan')).toBe('stable Ada');

    const promoted = change(production.registry, (e) => e.names.includes('plan'));
    await s.setLabel('plan', 'production', 2);
    await promoted;
    expect(await text(production.registry, 'plan')).toBe('trying Ada');

    const unstaged = change(staging.registry, (e) => e.type === 'remove');
    expect(await s.deleteLabel('plan', 'staging')).toBe(true);
    expect((await unstaged).names).toEqual(['plan']);
    expect(production.registry.has('plan')).toBe(true);

    const deleted = change(production.registry, (e) => e.type === 'remove');
    expect(await s.delete('plan')).toBe(true);
    expect((await deleted).names).toEqual(['plan']);
  });
});

describe('replicas', () => {
  it('serves an edit made through one replica from the other (two pools)', async () => {
    const table = freshTable();
    const a = store(poolA, table);
    await a.migrate();
    await a.put(prompt('shared', 'before {{who}}'));
    const first = await replica(a);
    const second = await replica(store(poolB, table));
    expect(await text(second.registry, 'shared')).toBe('before Ada');

    const seen = change(second.registry, (e) => e.names.includes('shared'));
    const seenHere = change(first.registry, (e) => e.names.includes('shared'));
    await a.put(prompt('shared', 'after {{who}}'));
    await Promise.all([seen, seenHere]);
    expect(await text(second.registry, 'shared')).toBe('after Ada');
    expect(second.sync.versions.get('shared')).toBe(2);
    expect(await text(first.registry, 'shared')).toBe('after Ada');
  });

  it.each([
    ['a burst of SQL writes', 5],
    ['a bulk SQL import (read in one query)', 200],
  ])('applies %s as one registry batch', async (_what, count) => {
    const table = freshTable();
    await store(poolA, table).migrate();
    // One transaction's notifications may reach the socket in several reads: a batch window wide enough that only a
    // broken build (not a busy machine) splits them.
    const { registry } = await replica(store(poolB, table), undefined, 500);
    const events: RegistryChangeEvent[] = [];
    registry.onChange((e) => events.push(e));
    const applied = change(registry);
    await poolA.query(
      `INSERT INTO ${table} (name, messages)
       SELECT 'burst-' || lpad(i::text, 3, '0'), '[{"role":"user","content":"hello"}]' FROM generate_series(1, $1::int) AS i`,
      [count],
    );
    await applied;
    expect(events).toEqual([
      { type: 'set', names: Array.from({ length: count }, (_, i) => `burst-${String(i + 1).padStart(3, '0')}`) },
    ]);
  });

  it('recovers from a killed listener connection: keeps serving, reconnects, reloads what it missed', async () => {
    const table = freshTable();
    const a = store(poolA, table);
    await a.migrate();
    await a.put(prompt('steady', 'v1 {{who}}'));
    const { logger, lines } = captureLogs();
    const b = store(poolB, table, { logger, reconnect: { minMs: 50, maxMs: 200 } });
    const { registry } = await replica(b);
    const killed = await poolA.query(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "mcp_prompt_kit.public.${table}"'`,
    );
    expect(killed.rows).toEqual([{ killed: true }]);
    expect(await text(registry, 'steady')).toBe('v1 Ada');

    const recovered = change(registry, (e) => e.names.includes('steady'));
    await a.put(prompt('steady', 'v2 {{who}}'));
    await recovered;
    expect(await text(registry, 'steady')).toBe('v2 Ada');
    await expect
      .poll(() => lines.map((l) => l.fields['event']))
      .toEqual(expect.arrayContaining(['prompt_listener_lost', 'prompt_listener_recovered']));
  });

  it('ignores NOTIFY payloads its triggers never send: no read, one log line however many arrive', async () => {
    const table = freshTable();
    const writer = store(poolA, table);
    await writer.migrate();
    const { logger, lines } = captureLogs();
    const { store: counting, stats } = counted(store(poolB, table, { logger }));
    const registry = new PromptRegistry();
    const sync = await syncRegistry(counting, registry, { batchMs: 0 });
    cleanups.push(() => sync.close());
    const junk = [
      '',
      'not json',
      '[]',
      'null',
      '42',
      '"greet"',
      '{}',
      '{"name":"x"}',
      '{"name":"x","version":1}',
      '{"name":"x","version":"1","label":null}',
      '{"name":"x","version":0,"label":null}',
      '{"name":"x","version":1.5,"label":null}',
      '{"name":1,"version":1,"label":null}',
      '{"name":"","version":1,"label":null}',
      '{"name":"x","version":1,"label":null,"extra":true}',
      '{"name":"x","version":1,"label":5}',
      JSON.stringify({ name: 'y'.repeat(1_001), version: 1, label: null }),
      `{"name":"${'z'.repeat(7_000)}`,
      ...Array.from({ length: 300 }, (_, i) => `{"junk":${i}}`),
    ];
    await poolA.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [`mcp_prompt_kit.public.${table}`, junk]);
    // One known change after the junk, in commit order: once it is applied, every junk payload has been seen.
    const added = change(registry, (e) => e.names.includes('after'));
    await writer.put(prompt('after'));
    await added;
    expect(stats).toMatchObject({ list: 1, get: 1 });
    const foreign = lines.filter((l) => l.fields['event'] === 'prompt_listener_foreign_payload');
    expect(foreign).toEqual([
      {
        level: 'warn',
        fields: expect.objectContaining({ channel: `mcp_prompt_kit.public.${table}`, bytes: 0, ignored: 1 }),
      },
    ]);
  });

  it('coalesces a burst of notifications: one read at a time, and one more for everything that came during it', async () => {
    const table = freshTable();
    const writer = store(poolA, table);
    await writer.migrate();
    await writer.put(prompt('first'));
    const reader = store(poolB, table);
    const { store: counting, stats } = counted(reader);
    const registry = new PromptRegistry();
    const sync = await syncRegistry(counting, registry, { batchMs: 0 });
    cleanups.push(() => sync.close());
    const channel = `mcp_prompt_kit.public.${table}`;
    const seen: unknown[] = [];
    cleanups.push(reader.watch((event) => seen.push(event)));

    // The reload a `reset` starts waits for a lock another session holds: a read in flight.
    const blockerPool = db.pool({ max: 1 });
    const blocker = await blockerPool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`LOCK TABLE ${table}, ${table}_labels, ${table}_versions IN ACCESS EXCLUSIVE MODE`);
      await poolA.query('SELECT pg_notify($1, $2)', [channel, '{"name":null,"version":null,"label":null}']);
      await expect.poll(() => stats.inFlight, { timeout: EVENT_WAIT_MS }).toBe(1);
      const burst = [
        ...Array.from({ length: 250 }, (_, i) =>
          JSON.stringify({ name: `burst-${i}`, version: 1, label: 'production' }),
        ),
        ...Array.from({ length: 50 }, (_, i) => JSON.stringify({ name: null, version: null, label: `reset-${i}` })),
      ];
      await poolA.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [channel, burst]);
      await expect.poll(() => seen.length, { timeout: EVENT_WAIT_MS }).toBe(1 + burst.length);
      expect(stats).toMatchObject({ list: 2, get: 0, inFlight: 1 });
      await blocker.query('COMMIT');
    } finally {
      blocker.release();
    }
    await sync.settled();
    expect(stats).toMatchObject({ list: 3, get: 0, inFlight: 0, maxInFlight: 1 });
    expect(registry.list().prompts.map((p) => p.name)).toEqual(['first']);
  });

  it('loads 1,000 rows into a registry', async () => {
    const table = freshTable();
    const s = store(poolA, table);
    await s.migrate();
    await poolA.query(`INSERT INTO ${table} (name, description, arguments, messages)
      SELECT 'prompt-' || lpad(i::text, 4, '0'), 'Prompt ' || i, '[{"name":"who","required":true}]',
        '[{"role":"user","content":"Hello {{who}}"}]' FROM generate_series(1, 1000) AS i`);
    const { registry, sync } = await replica(store(poolB, table));
    expect(registry.size).toBe(1000);
    expect(sync.versions.size).toBe(1000);
    expect(registry.list().prompts[999]?.name).toBe('prompt-1000');
    expect(await text(registry, 'prompt-0500')).toBe('Hello Ada');
  });
});
