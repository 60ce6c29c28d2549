import { afterAll, beforeAll } from 'vitest';
import type pg from 'pg';
import { createPostgresPromptStore } from '../../src/stores/postgres/store.js';
import { describeStoreContract } from './contract.js';
import { testDatabase } from './pg-database.js';
import type { TestDatabase } from './pg-server.js';

let db: TestDatabase;
let pool: pg.Pool;
let tables = 0;

beforeAll(async () => {
  db = await testDatabase();
  pool = db.pool({ max: 6 });
  pool.on('error', () => {});
});
afterAll(async () => {
  await db?.close();
});

describeStoreContract(
  'PostgreSQL store',
  async () => {
    const table = `contract_${++tables}`;
    const store = createPostgresPromptStore({ pool, table });
    await store.migrate();
    return {
      store,
      // A row written by hand on a table whose role constraint was dropped (a legacy database's state).
      corrupt: async (name) => {
        await pool.query(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${table}_role_check`);
        await pool.query(
          `INSERT INTO ${table} (name, messages) VALUES ($1, '[{"role":"system","content":"Be brief"}]')`,
          [name],
        );
      },
      close: () => store.close(),
    };
  },
  { versions: 'history', corruptible: true, reconcilable: true },
);
