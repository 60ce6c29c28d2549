/**
 * `mcp-prompt-kit push`: a prompt directory published to a label of a real PostgreSQL database. What a push writes and
 * prints runs the command in this process; a child process where the process is the point: the exit code of a push
 * that fails mid-way or cannot connect (the process ends, nothing left hanging), and the documented commands with the
 * database from DATABASE_URL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresPromptStore } from '../../src/stores/postgres/store.js';
import type { PostgresPromptStore } from '../../src/stores/postgres/store.js';
import { loadPg } from '../../src/cli/database.js';
import { blocksIn } from '../readme-blocks.js';
import { startRelay } from '../stores/pg-proxy.js';
import { testDatabase } from '../stores/pg-database.js';
import type { TestDatabase } from '../stores/pg-server.js';
import { runCli, runCliInProcess } from './process.js';
import type { CliResult } from './process.js';

const dirs: string[] = [];
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await Promise.all(databases.map((db) => db.close()));
});

/** A prompt directory with these files. */
function promptDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mpk-push-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function prompt(name: string, text: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ name, ...extra, messages: [{ role: 'user', content: text }] });
}

interface Db {
  db: TestDatabase;
  pool: pg.Pool;
  store: PostgresPromptStore;
  push(dir: string, ...args: string[]): Promise<CliResult>;
  pushJson(dir: string, ...args: string[]): Promise<Record<string, unknown> & { code: number | null }>;
  count(table: string): Promise<number>;
}

async function database(): Promise<Db> {
  const db = await testDatabase();
  databases.push(db);
  const pool = db.pool();
  const store = createPostgresPromptStore({ pool });
  const push = (dir: string, ...args: string[]): Promise<CliResult> =>
    runCliInProcess(['push', dir, '--database', db.url, ...args]);
  return {
    db,
    pool,
    store,
    push,
    async pushJson(dir, ...args) {
      const result = await push(dir, '--json', ...args);
      expect(result.stdout, result.stderr).not.toBe('');
      return { ...(JSON.parse(result.stdout) as Record<string, unknown>), code: result.code };
    },
    async count(table) {
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${table}`);
      return rows[0].n as number;
    },
  };
}

/** The backend of this database waiting for an advisory lock, once there is one (polled; generous limit). */
async function lockWaiter(pool: pg.Pool): Promise<number> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const { rows } = await pool.query(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
    );
    if (rows[0] !== undefined) return rows[0].pid as number;
    if (Date.now() > deadline) throw new Error('timed out waiting for the push to wait for the lock');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const names = (entries: unknown): string[] => (entries as { name: string }[]).map((e) => e.name);

describe('push', () => {
  let d: Db;
  beforeAll(async () => {
    d = await database();
  });

  it('publishes every prompt of a directory under the label, as version 1, and reports them as added', async () => {
    const dir = promptDir({
      'greet.json': prompt('greet', 'Hello', { description: 'Greets' }),
      'bye.json': prompt('bye', 'Bye'),
    });
    const report = await d.pushJson(dir, '--label', 'staging');
    expect(report.code).toBe(0);
    expect(report).toMatchObject({ label: 'staging', applied: true, createdTables: true, versionsWritten: 2 });
    expect(report.added).toEqual([
      { name: 'bye', from: null, to: 1, newVersion: true, fields: [] },
      { name: 'greet', from: null, to: 1, newVersion: true, fields: [] },
    ]);
    expect((await d.store.get('greet', { label: 'staging' }))?.definition).toEqual({
      name: 'greet',
      description: 'Greets',
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }],
    });
    // Only the label pushed to moves: production is not touched.
    expect(await d.store.list({ label: 'production' })).toEqual([]);

    // A second push of the same directory writes nothing: no version, no label move.
    const versions = await d.count('prompts_versions');
    const moves = await d.count('prompts_label_history');
    const again = await d.pushJson(dir, '--label', 'staging');
    expect(again).toMatchObject({ code: 0, applied: true, versionsWritten: 0, added: [], changed: [] });
    expect(again.unchanged).toEqual([
      { name: 'bye', version: 1 },
      { name: 'greet', version: 1 },
    ]);
    expect(await d.count('prompts_versions')).toBe(versions);
    expect(await d.count('prompts_label_history')).toBe(moves);

    // One file changed: one new version, with what changed in it.
    writeFileSync(
      join(dir, 'greet.json'),
      JSON.stringify({
        name: 'greet',
        title: 'Greeting',
        arguments: [{ name: 'who', required: true }],
        messages: [
          { role: 'user', content: 'Hi {{who}}' },
          { role: 'assistant', content: 'Hello!' },
        ],
      }),
    );
    const changed = await d.pushJson(dir, '--label', 'staging', '--actor', 'ci-bot');
    expect(changed).toMatchObject({ code: 0, versionsWritten: 1, added: [] });
    expect(changed.changed).toEqual([
      {
        name: 'greet',
        from: 1,
        to: 2,
        newVersion: true,
        fields: ['title added', 'description removed', 'arguments added', 'messages: 1 -> 2, #1 changed'],
      },
    ]);
    expect(await d.count('prompts_versions')).toBe(versions + 1);
    const history = await d.store.history('greet');
    expect(history.labelMoves[0]).toMatchObject({ label: 'staging', from: 1, to: 2, movedBy: 'ci-bot' });

    // Production follows with the same content: the label moves to the existing version, none is written.
    const production = await d.pushJson(dir);
    expect(production).toMatchObject({ code: 0, label: 'production', versionsWritten: 0 });
    expect(production.added).toEqual([
      { name: 'bye', from: null, to: 1, newVersion: false, fields: [] },
      { name: 'greet', from: null, to: 2, newVersion: false, fields: [] },
    ]);
    expect(await d.count('prompts_versions')).toBe(versions + 1);
    expect(await d.store.labels('greet')).toEqual({ latest: 2, production: 2, staging: 2 });
  });

  it('prints the drift as text: added, changed with its fields, and what only the store has', async () => {
    const { store, push } = await database();
    await store.migrate();
    await store.put(JSON.parse(prompt('greet', 'Hello')) as never);
    await store.put(JSON.parse(prompt('old', 'Gone soon')) as never);
    const dir = promptDir({
      'greet.json': prompt('greet', 'Hello', { description: 'new' }),
      'new.json': prompt('new', 'N'),
    });
    const { code, stdout } = await push(dir);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^push .* -> postgres:\/\/.*\(public\.prompts\), label production$/);
    expect(lines.slice(1)).toEqual([
      '  + new: in the directory, not under production: new version 1',
      '  ~ greet: version 1: description added: new version 2',
      '  - old: under production (version 1), not in the directory: kept (--prune removes it from the label)',
      '1 added, 1 changed, 0 unchanged, 1 only in the store; 2 new version(s) written',
    ]);
  });

  it('with --dry-run prints the plan and writes nothing, not even the tables', async () => {
    const { pool, pushJson, count, store } = await database();
    const dir = promptDir({ 'greet.json': prompt('greet', 'Hello') });
    const report = await pushJson(dir, '--dry-run');
    expect(report).toMatchObject({ code: 0, dryRun: true, applied: false, createdTables: true, versionsWritten: 1 });
    expect(report.added).toEqual([{ name: 'greet', from: null, to: null, newVersion: true, fields: [] }]);
    const { rows } = await pool.query(`SELECT to_regclass('public.prompts') AS t`);
    expect(rows[0].t).toBeNull();

    await pushJson(dir);
    writeFileSync(join(dir, 'greet.json'), prompt('greet', 'Changed'));
    writeFileSync(join(dir, 'other.json'), prompt('other', 'Other'));
    const before = [await count('prompts_versions'), await count('prompts_label_history')];
    const dry = await pushJson(dir, '--dry-run', '--prune');
    expect(dry).toMatchObject({ code: 0, applied: false, createdTables: false, versionsWritten: 2 });
    expect(names(dry.changed)).toEqual(['greet']);
    expect(names(dry.added)).toEqual(['other']);
    expect([await count('prompts_versions'), await count('prompts_label_history')]).toEqual(before);
    expect((await store.get('greet'))?.version).toBe(1);
  });

  it('with --prune removes the label from prompts the directory no longer has, keeping their versions', async () => {
    const { pushJson, store, count } = await database();
    const dir = promptDir({ 'a.json': prompt('a', 'A'), 'b.json': prompt('b', 'B'), 'c.json': prompt('c', 'C') });
    await pushJson(dir, '--label', 'staging');
    rmSync(join(dir, 'b.json'));
    rmSync(join(dir, 'c.json'));
    const kept = await pushJson(dir, '--label', 'staging');
    expect(kept.storeOnly).toEqual([
      { name: 'b', version: 1, pruned: false },
      { name: 'c', version: 1, pruned: false },
    ]);
    expect(names(await store.list({ label: 'staging' }))).toEqual(['a', 'b', 'c']);

    const versions = await count('prompts_versions');
    const pruned = await pushJson(dir, '--label', 'staging', '--prune');
    expect(pruned).toMatchObject({ code: 0, applied: true, versionsWritten: 0 });
    expect(pruned.storeOnly).toEqual([
      { name: 'b', version: 1, pruned: true },
      { name: 'c', version: 1, pruned: true },
    ]);
    expect(names(await store.list({ label: 'staging' }))).toEqual(['a']);
    expect(await count('prompts_versions')).toBe(versions);
    expect((await store.history('b')).labelMoves[0]).toMatchObject({ label: 'staging', from: 1, to: null });
    // Pruned once, there is nothing left to prune.
    expect((await pushJson(dir, '--label', 'staging', '--prune')).storeOnly).toEqual([]);
  });

  it('writes nothing when a file of the directory has an error, naming its file and line', async () => {
    const { push, pool } = await database();
    const dir = promptDir({
      'good.json': prompt('good', 'Fine'),
      'broken.yaml': 'name: broken\nmessages:\n  - role: system\n    content: hi\n',
    });
    const { code, stdout, stderr } = await push(dir);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/broken\.yaml:3:\d+: /);
    expect(stderr).toContain('1 error(s)');
    expect(stderr).toContain('nothing written');
    const { rows } = await pool.query(`SELECT to_regclass('public.prompts') AS t`);
    expect(rows[0].t).toBeNull();
  });

  it('rolls the whole push back when the connection is lost in the middle, and a second push converges', async () => {
    const { db, pool, store, count } = await database();
    await store.migrate();
    const dir = promptDir({ 'alpha.json': prompt('alpha', 'A'), 'greet.json': prompt('greet', 'Hello') });
    // Writing a version of 'greet' takes this lock: the push waits there, after it has written 'alpha'.
    const holder = await pool.connect();
    await holder.query(`SELECT pg_advisory_lock(hashtext('mcp-prompt-kit:public.prompts:greet'))`);
    const running = runCli(['push', dir, '--json'], { env: { ...process.env, DATABASE_URL: db.url } });
    const waiting = await lockWaiter(pool);
    await pool.query('SELECT pg_terminate_backend($1)', [waiting]);
    const { code, stdout, stderr } = await running;
    await holder.query('SELECT pg_advisory_unlock_all()');
    holder.release();
    expect(code, stderr).toBe(3);
    expect(stderr).toContain('nothing was applied (the transaction rolled back)');
    expect(stderr).toContain('run push again, it converges');
    expect(JSON.parse(stdout)).toMatchObject({ applied: false });
    expect(await count('prompts_versions')).toBe(0);
    expect(await store.list()).toEqual([]);

    const again = await runCliInProcess(['push', dir, '--json'], { env: { DATABASE_URL: db.url } });
    expect(again.code, again.stderr).toBe(0);
    expect(names(await store.list())).toEqual(['alpha', 'greet']);
  });

  it('gives up on a server that stops answering mid-push after --timeout, with nothing applied', async () => {
    const { db, pool, store } = await database();
    await store.migrate();
    const dir = promptDir({ 'alpha.json': prompt('alpha', 'A'), 'greet.json': prompt('greet', 'Hello') });
    const holder = await pool.connect();
    await holder.query(`SELECT pg_advisory_lock(hashtext('mcp-prompt-kit:public.prompts:greet'))`);
    const relay = await startRelay(db.url);
    try {
      const running = runCli(['push', dir, '--database', relay.url, '--timeout', '2000', '--json']);
      await lockWaiter(pool);
      // The push's connection goes silent (no answer, no close); new connections still go through.
      relay.freeze();
      const { code, stdout, stderr } = await running;
      expect(code, stderr).toBe(3);
      expect(stderr).toMatch(/timeout/i);
      expect(stderr).toContain('nothing was applied (the transaction rolled back)');
      expect(JSON.parse(stdout)).toMatchObject({ applied: false });
    } finally {
      await holder.query('SELECT pg_advisory_unlock_all()');
      holder.release();
      await relay.close();
    }
    expect(await store.list({ label: 'latest' })).toEqual([]);
  });

  it('says it could not check what was applied when the database goes away mid-push, and a second push converges', async () => {
    const { db, pool, store } = await database();
    await store.migrate();
    const dir = promptDir({ 'alpha.json': prompt('alpha', 'A'), 'greet.json': prompt('greet', 'Hello') });
    const holder = await pool.connect();
    await holder.query(`SELECT pg_advisory_lock(hashtext('mcp-prompt-kit:public.prompts:greet'))`);
    const relay = await startRelay(db.url);
    try {
      const running = runCli(['push', dir, '--database', relay.url]);
      await lockWaiter(pool);
      // Every connection through the relay is cut, and no new one gets through.
      await relay.close();
      const { code, stdout, stderr } = await running;
      expect(code, stderr).toBe(3);
      expect(stderr).toContain('could not read the label again to check what was applied');
      expect(stderr).toContain('run push again, it converges');
      expect(stdout).toContain('2 new version(s) not written');
    } finally {
      await holder.query('SELECT pg_advisory_unlock_all()');
      holder.release();
    }
    const again = await runCliInProcess(['push', dir, '--database', db.url, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: true, versionsWritten: 2 });
    expect(names(await store.list())).toEqual(['alpha', 'greet']);
  });

  it('fails with exit 3 when the database is unreachable, never showing its password', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const url = `postgres://deploy:s3cret-Pa55@127.0.0.1:${port}/prompts`;
    const dir = promptDir({ 'greet.json': prompt('greet', 'Hello') });
    for (const result of [
      await runCli(['push', dir], { env: { ...process.env, DATABASE_URL: url } }),
      await runCliInProcess(['push', dir, '--database', url, '--dry-run']),
    ]) {
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`postgres://deploy:***@127.0.0.1:${port}/prompts`);
      expect(result.stderr).toContain('ECONNREFUSED');
      expect(result.stdout + result.stderr).not.toContain('s3cret');
    }
  });

  it('refuses usage mistakes with exit 2: no database, the latest label, a bad label', async () => {
    const dir = promptDir({ 'greet.json': prompt('greet', 'Hello') });
    const none = await runCliInProcess(['push', dir], { env: { DATABASE_URL: undefined } });
    expect(none).toMatchObject({ code: 2 });
    expect(none.stderr).toContain('give the database with --database <url> or the DATABASE_URL variable');
    const url = 'postgres://u@127.0.0.1:1/db';
    expect((await runCliInProcess(['push', dir, '--database', url, '--label', 'latest'])).stderr).toContain(
      '--label latest always points to the newest version',
    );
    const bad = await runCliInProcess(['push', dir, '--database', url, '--label', 'no spaces']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--label must be 1 to 63 letters');
    const http = await runCliInProcess(['push', dir, '--database', 'http://example.com/']);
    expect(http.stderr).toContain('must start with postgres:// or postgresql://');
  });

  it('runs the commands docs/replicas.md shows, the database from DATABASE_URL', async () => {
    const { db, store } = await database();
    const pulled = mkdtempSync(join(tmpdir(), 'mpk-pulled-'));
    dirs.push(pulled);
    const lines = blocksIn('docs/replicas.md', 'From a repository to the store', 'sh')
      .flatMap((b) => b.code.split('\n'))
      .filter((line) => line.startsWith('npx mcp-prompt-kit '));
    expect(lines.map((l) => l.split(' ')[2])).toEqual(['push', 'push', 'pull']);
    for (const line of lines) {
      const args = line
        .split(' ')
        .slice(2)
        .map((w) => (w === 'pulled-prompts' ? pulled : w));
      const { code, stdout, stderr } = await runCli(args, { env: { ...process.env, DATABASE_URL: db.url } });
      expect(code, `${line}\n${stdout}${stderr}`).toBe(0);
      expect(stdout).not.toContain(':password@');
    }
    expect((await store.list({ label: 'staging' })).length).toBeGreaterThan(2);
    expect((await store.history('review-code-against-patterns')).labelMoves[0]?.movedBy).toBe('ci');
  });

  it('says how to install pg when it is missing', async () => {
    await expect(loadPg('push', 'pg-that-is-not-installed')).rejects.toThrow(
      "push needs the PostgreSQL driver 'pg' (an optional peer dependency), but it is not installed: npm install pg",
    );
  });
});
