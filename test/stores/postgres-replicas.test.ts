/**
 * Replicas that survive the database, on a real PostgreSQL: a replica started while the database refuses connections
 * serves its last-known-good snapshot through the MCP SDK and catches up when the database returns; a change whose
 * NOTIFY never reaches the replica is served after the next reconcile; health follows all of it.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFileSnapshot } from '../../src/fs/index.js';
import { PromptRegistry, syncRegistry } from '../../src/index.js';
import type { RegistryChangeEvent, RegistrySync, SyncRegistryOptions } from '../../src/index.js';
import { attachPrompts } from '../../src/mcp/index.js';
import { createPostgresPromptStore } from '../../src/stores/postgres/store.js';
import type { PostgresPromptStore } from '../../src/stores/postgres/store.js';
import type { PostgresPromptStoreOptions } from '../../src/stores/postgres/store-options.js';
import type { PgListenerClient } from '../../src/stores/postgres/types.js';
import { tempDir } from '../fs/temp.js';
import { captureLogs } from '../support/logs.js';
import { nextEvent, prompt } from './contract.js';
import { testDatabase } from './pg-database.js';
import { startRelay } from './pg-proxy.js';
import type { TestDatabase } from './pg-server.js';
import { EVENT_WAIT_MS } from '../support/wait.js';

let db: TestDatabase;
let admin: pg.Pool;
let tables = 0;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  db = await testDatabase();
  admin = db.pool({ max: 3 });
  admin.on('error', () => {});
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await db?.close();
});

/** A writer on a fresh table: what editors (or another replica) do. */
async function writer(): Promise<{ table: string; store: PostgresPromptStore }> {
  const table = `replicas_${++tables}`;
  const store = createPostgresPromptStore({ pool: admin, table });
  cleanups.push(() => store.close());
  await store.migrate();
  return { table, store };
}

/** A replica: its own pool (on `url`), store and sync. */
async function replica(
  url: string,
  table: string,
  options: SyncRegistryOptions = {},
  storeOptions: Partial<PostgresPromptStoreOptions> = {},
): Promise<{ registry: PromptRegistry; sync: RegistrySync; store: PostgresPromptStore }> {
  const pool = new pg.Pool({ connectionString: url, max: 3, connectionTimeoutMillis: 2_000 });
  pool.on('error', () => {});
  cleanups.push(() => pool.end());
  const store = createPostgresPromptStore({ pool, table, reconnect: { minMs: 20, maxMs: 100 }, ...storeOptions });
  cleanups.push(() => store.close());
  const registry = new PromptRegistry();
  const sync = await syncRegistry(store, registry, { batchMs: 0, ...options });
  cleanups.push(() => sync.close());
  return { registry, sync, store };
}

/** An MCP SDK client talking to a server that serves `registry`. */
async function client(registry: PromptRegistry): Promise<Client> {
  const server = new McpServer({ name: 'replica', version: '1.0.0' });
  attachPrompts(server, registry);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const connected = new Client({ name: 'replicas-test', version: '1.0.0' });
  await connected.connect(clientSide);
  cleanups.push(() => connected.close());
  return connected;
}

async function served(mcp: Client, name: string): Promise<unknown> {
  return (await mcp.getPrompt({ name, arguments: { who: 'Ada' } })).messages[0]?.content;
}

function registryChange(
  registry: PromptRegistry,
  matches: (e: RegistryChangeEvent) => boolean,
): Promise<RegistryChangeEvent> {
  return nextEvent<RegistryChangeEvent>(registry.onChange.bind(registry), matches, EVENT_WAIT_MS);
}

describe('a replica whose database is down at start', () => {
  it('serves its snapshot through the SDK at once, then catches up and announces list_changed when the database returns', async () => {
    const { table, store: editor } = await writer();
    await editor.put(prompt('greet', 'Hello {{who}}'));
    await editor.put(prompt('retired'));
    const path = join(await tempDir(), 'snapshot.json');
    const relay = await startRelay(db.url);
    cleanups.push(() => relay.close());

    // A first run of the replica leaves its snapshot behind.
    const first = await replica(relay.url, table, { snapshot: createFileSnapshot(path), snapshotIntervalMs: 0 });
    await vi.waitFor(() => expect(first.sync.health().snapshotSavedAt).not.toBeNull(), { timeout: EVENT_WAIT_MS });
    first.sync.close();
    await first.store.close();

    await relay.refuse();
    await editor.put(prompt('greet', 'Good morning {{who}}'));
    await editor.delete('retired');
    await editor.put(prompt('added'));

    const logs = captureLogs();
    const { registry, sync } = await replica(relay.url, table, {
      snapshot: createFileSnapshot(path),
      logger: logs.logger,
    });
    const mcp = await client(registry);
    // Every prompt of the snapshot, no failed request.
    expect((await mcp.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet', 'retired']);
    expect(await served(mcp, 'greet')).toEqual({ type: 'text', text: 'Hello Ada' });
    expect(await served(mcp, 'retired')).toEqual({ type: 'text', text: 'Say hello to Ada from retired' });
    expect(sync.health()).toMatchObject({
      status: 'degraded',
      source: 'snapshot',
      listening: false,
      lastError: { code: 'ECONNREFUSED' },
    });
    expect(logs.lines.find((l) => l.fields['event'] === 'prompt_sync_from_snapshot')?.fields).toMatchObject({
      snapshot: path,
      prompts: 2,
    });
    const savedWhileDown = sync.health().snapshotSavedAt;
    expect(savedWhileDown).toBeNull();

    let announced = 0;
    mcp.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      announced++;
    });
    const caughtUp = registryChange(registry, (e) => e.names.includes('added'));
    await relay.accept();
    await caughtUp;
    await vi.waitFor(() => expect(announced).toBeGreaterThan(0), { timeout: EVENT_WAIT_MS });
    expect((await mcp.listPrompts()).prompts.map((p) => p.name)).toEqual(['added', 'greet']);
    expect(await served(mcp, 'greet')).toEqual({ type: 'text', text: 'Good morning Ada' });
    await vi.waitFor(() => expect(sync.health()).toMatchObject({ status: 'ok', source: 'store', listening: true }), {
      timeout: EVENT_WAIT_MS,
    });
    // What the store served replaces the snapshot once it is read.
    await vi.waitFor(() => expect(sync.health().snapshotSavedAt).not.toBeNull(), { timeout: EVENT_WAIT_MS });
    const again = await replica(db.url, table, { snapshot: createFileSnapshot(path) });
    expect(again.registry.list().prompts.map((p) => p.name)).toEqual(['added', 'greet']);
  }, 120_000);

  it('rejects as before when there is no snapshot to start from', async () => {
    const { table } = await writer();
    const relay = await startRelay(db.url);
    cleanups.push(() => relay.close());
    await relay.refuse();
    const path = join(await tempDir(), 'never-written.json');
    await expect(replica(relay.url, table, { snapshot: createFileSnapshot(path) })).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('the freshness bound', () => {
  it('serves a change whose NOTIFY never reached the replica after the next reconcile', async () => {
    const { table, store: editor } = await writer();
    await editor.put(prompt('greet', 'Hello {{who}}'));
    await editor.put(prompt('stays'));
    let session: PgListenerClient | undefined;
    const logs = captureLogs();
    const { registry, sync } = await replica(
      db.url,
      table,
      { reconcileMs: 200, logger: logs.logger },
      {
        listener: async () => {
          const c = new pg.Client({ connectionString: db.url });
          c.on('error', () => {});
          await c.connect();
          session = c as unknown as PgListenerClient;
          return session;
        },
      },
    );
    await vi.waitFor(() => expect(sync.health().listening).toBe(true), { timeout: EVENT_WAIT_MS });
    // The listener's session stays connected and answers its heartbeats, but hears no more notifications.
    await session!.query(`UNLISTEN *`);
    const repaired = registryChange(registry, (e) => e.names.includes('greet'));
    await editor.put(prompt('greet', 'Good morning {{who}}'));
    await editor.delete('stays');
    await repaired;
    expect((await registry.getPrompt('greet', { who: 'Ada' })).messages[0]?.content).toEqual({
      type: 'text',
      text: 'Good morning Ada',
    });
    await vi.waitFor(() => expect(registry.has('stays')).toBe(false), { timeout: EVENT_WAIT_MS });
    expect(logs.lines.find((l) => l.fields['event'] === 'prompt_sync_reconciled')?.fields).toMatchObject({
      changed: 1,
    });
    // Repaired by the reconcile, not by a reconnect: the session never dropped.
    expect(logs.events()).not.toContain('prompt_listener_recovered');
    expect(sync.versions.get('greet')).toBe(2);
  });

  it('reports the store’s names and versions with a fingerprint, and no rows while the fingerprint holds', async () => {
    const { store: editor } = await writer();
    await editor.put(prompt('b'));
    await editor.put(prompt('a'));
    await editor.put(prompt('a', 'again {{who}}'));
    await editor.put(prompt('draft'), { labels: [] });
    const production = await editor.revisions();
    expect(production.entries).toEqual([
      { name: 'a', version: 2 },
      { name: 'b', version: 1 },
    ]);
    expect(await editor.revisions({ since: production.fingerprint })).toEqual({ fingerprint: production.fingerprint });
    const latest = await editor.revisions({ label: 'latest', since: production.fingerprint });
    expect(latest.entries?.map((e) => e.name)).toEqual(['a', 'b', 'draft']);
    await editor.setLabel('a', 'production', 1);
    const moved = await editor.revisions({ since: production.fingerprint });
    expect(moved.fingerprint).not.toBe(production.fingerprint);
    expect(moved.entries).toEqual([
      { name: 'a', version: 1 },
      { name: 'b', version: 1 },
    ]);
    const empty = await editor.revisions({ label: 'staging' });
    expect(empty.entries).toEqual([]);
  });
});

describe('health on PostgreSQL', () => {
  it('is degraded while the connection is lost and ok once it listens again and has read what it missed', async () => {
    const { table, store: editor } = await writer();
    await editor.put(prompt('greet'));
    const relay = await startRelay(db.url);
    cleanups.push(() => relay.close());
    const { registry, sync } = await replica(relay.url, table, { reconcileMs: 100 });
    await vi.waitFor(() => expect(sync.health()).toMatchObject({ status: 'ok', listening: true }), {
      timeout: EVENT_WAIT_MS,
    });
    await relay.refuse();
    await vi.waitFor(() => expect(sync.health()).toMatchObject({ status: 'degraded', listening: false }), {
      timeout: EVENT_WAIT_MS,
    });
    const degradedSince = sync.health().degradedSince;
    expect(degradedSince).toEqual(expect.any(Number));
    // Still serving what it had.
    expect(registry.has('greet')).toBe(true);
    await editor.put(prompt('added'));
    const caughtUp = registryChange(registry, (e) => e.names.includes('added'));
    await relay.accept();
    await caughtUp;
    await vi.waitFor(
      () => expect(sync.health()).toMatchObject({ status: 'ok', listening: true, degradedSince: null }),
      {
        timeout: EVENT_WAIT_MS,
      },
    );
  });
});
