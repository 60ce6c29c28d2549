/** `store.transaction`: several writes of the PostgreSQL store committed together, or none of them. */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresPromptStore } from '../../src/stores/postgres/store.js';
import type { PostgresPromptStore, PromptTransaction } from '../../src/stores/postgres/store.js';
import type { StoreChangeEvent } from '../../src/stores/contract.js';
import { testDatabase } from './pg-database.js';
import type { TestDatabase } from './pg-server.js';
import { EVENT_WAIT_MS } from '../support/wait.js';

let db: TestDatabase;
let pool: pg.Pool;
let tables = 0;
const stores: PostgresPromptStore[] = [];

beforeAll(async () => {
  db = await testDatabase();
  pool = db.pool();
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await db.close();
});

async function freshStore(): Promise<PostgresPromptStore> {
  const store = createPostgresPromptStore({ pool, table: `tx_${++tables}` });
  stores.push(store);
  await store.migrate();
  return store;
}

const text = (name: string, content: string) => ({ name, messages: [{ role: 'user' as const, content }] });

describe('store.transaction', () => {
  it('commits every write made through it together, recording the actor', async () => {
    const store = await freshStore();
    await store.put(text('old', 'Old'), { labels: ['staging'] });
    const events: StoreChangeEvent[] = [];
    const unwatch = store.watch((event) => events.push(event));
    const result = await store.transaction(
      async (tx) => {
        const a = await tx.put(text('a', 'A'), { labels: [] });
        expect(await tx.setLabel('a', 'staging', a.version)).toBeNull();
        const b = await tx.put(text('b', 'B'), { labels: ['staging'], actor: 'someone-else' });
        expect(await tx.deleteLabel('old', 'staging')).toBe(true);
        expect(await tx.deleteLabel('old', 'staging')).toBe(false);
        return [a.version, b.version];
      },
      { actor: 'ci' },
    );
    expect(result).toEqual([1, 1]);
    expect((await store.list({ label: 'staging' })).map((p) => p.name)).toEqual(['a', 'b']);
    expect((await store.history('a')).labelMoves[0]).toMatchObject({ label: 'staging', to: 1, movedBy: 'ci' });
    expect((await store.history('b')).versions[0]?.createdBy).toBe('someone-else');
    expect((await store.history('old')).labelMoves[0]).toMatchObject({ label: 'staging', to: null, movedBy: 'ci' });
    // Replicas hear of each change once it is committed.
    await expect
      .poll(() => events.some((e) => e.type === 'put' && e.name === 'b'), { timeout: EVENT_WAIT_MS })
      .toBe(true);
    unwatch();
  });

  it('rolls every write back when a step fails, naming the step', async () => {
    const store = await freshStore();
    await expect(
      store.transaction(async (tx) => {
        await tx.put(text('a', 'A'));
        await tx.setLabel('a', 'staging', 7);
      }),
    ).rejects.toMatchObject({ code: 'PROMPT_NOT_FOUND', message: 'Unknown prompt version: a version 7' });
    await expect(
      store.transaction(async (tx) => {
        await tx.put(text('a', 'A'));
        await tx.put(text('b', 'nul \u0000 is not text PostgreSQL stores'));
      }),
    ).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
      message: expect.stringMatching(/^transaction \(put\) of 'b' on public\.tx_\d+ failed: /),
    });
    expect(await store.list({ label: 'latest' })).toEqual([]);
    expect(await store.versions('a')).toEqual([]);
  });

  it('refuses latest as a label, and any step after the transaction ended', async () => {
    const store = await freshStore();
    let kept: PromptTransaction | undefined;
    await store.transaction(async (tx) => {
      kept = tx;
      await expect(tx.put(text('a', 'A'), { labels: ['latest'] })).rejects.toThrow(/'latest' always points/);
      await expect(tx.setLabel('a', 'latest', 1)).rejects.toThrow(/'latest' always points/);
      await expect(tx.deleteLabel('a', 'latest')).rejects.toThrow(/cannot be removed/);
    });
    await expect(kept!.put(text('a', 'A'))).rejects.toThrow('transaction: put called after the transaction ended');
    expect(await store.versions('a')).toEqual([]);
  });
});
