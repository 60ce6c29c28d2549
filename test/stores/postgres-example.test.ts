/**
 * docs/replicas.md's examples ARE examples/postgres/server.ts and examples/postgres/http-replica.ts;
 * examples/postgres/demo.ts runs two of the first on one database and edits a prompt with plain SQL, and the second
 * is started here with its database up, then down (from its snapshot), then back.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPostgresPromptStore } from '../../src/stores/postgres/store.js';
import { tempDir } from '../fs/temp.js';
import { blocksIn } from '../readme-blocks.js';
import { sharedServerUrl, testDatabase } from './pg-database.js';
import { startRelay } from './pg-proxy.js';
import { tsNodeArgs } from '../support/processes.js';

const root = new URL('../../', import.meta.url);

/** Runs a child to its end; resolves with its exit code and output whether it succeeded or not. */
function runChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: fileURLToPath(root), env, timeout: timeoutMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        resolve({
          code:
            error === null
              ? 0
              : ((error as { code?: number | string }).code ?? (error as { signal?: string }).signal ?? null),
          stdout,
          stderr,
        });
      },
    );
  });
}

describe('the several-replicas example', () => {
  it('is shown verbatim in docs/replicas.md', () => {
    const source = readFileSync(new URL('examples/postgres/server.ts', root), 'utf8');
    expect(blocksIn('docs/replicas.md', 'Replicas and PostgreSQL', 'ts')[0]?.code).toBe(source);
  });

  it('serves an SQL edit from both replicas, each announcing it with list_changed', async () => {
    // The demo makes its own throwaway database on this run's server (or starts one when DATABASE_URL is unset).
    const env = { ...process.env, DATABASE_URL: await sharedServerUrl() };
    // Well inside the test's own timeout, so that a stuck demo fails with its output rather than a bare timeout.
    const { code, stdout, stderr } = await runChild(tsNodeArgs('examples/postgres/demo.ts'), env, 100_000);
    const output = `exit ${String(code)}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`;
    expect(code, output).toBe(0);
    for (const line of [
      'replica A before: {"type":"text","text":"Hello, Ada!"}',
      'replica B before: {"type":"text","text":"Hello, Ada!"}',
      'replica A after: {"type":"text","text":"Good morning, Ada!"}',
      'replica B after: {"type":"text","text":"Good morning, Ada!"}',
      'history: ["production 1 -> 2","production null -> 1"]',
    ]) {
      expect(stdout, output).toContain(line);
    }
  }, 120_000);
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts the HTTP replica example; resolves with its URL once it prints it. */
function startReplica(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, tsNodeArgs('examples/postgres/http-replica.ts'), {
    cwd: fileURLToPath(root),
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const closed = new Promise((resolve) => child.once('close', resolve));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await closed;
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const url = /^(http:\/\/\S+)$/m.exec(output)?.[1];
      if (url !== undefined) resolve({ url, child });
    });
    child.once('close', (code) => reject(new Error(`the replica exited with ${String(code)}:\n${output}`)));
  });
}

async function readiness(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function greeting(url: string): Promise<unknown> {
  const response = await fetch(`${url}/prompts/greet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ who: 'Ada' }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { messages: { content: unknown }[] } }).result.messages[0]?.content;
}

describe('the HTTP replica example', () => {
  it('is shown verbatim in docs/replicas.md', () => {
    const source = readFileSync(new URL('examples/postgres/http-replica.ts', root), 'utf8');
    expect(blocksIn('docs/replicas.md', 'Surviving the database', 'ts').map((b) => b.code)).toEqual([source]);
  });

  it('serves from its snapshot and is ready while the database is down at start, then follows it again', async () => {
    const db = await testDatabase();
    cleanups.push(() => db.close());
    const pool = db.pool();
    const editor = createPostgresPromptStore({ pool });
    cleanups.push(() => editor.close());
    await editor.migrate();
    await editor.put({
      name: 'greet',
      arguments: [{ name: 'who', required: true }],
      messages: [{ role: 'user', content: 'Hello, {{who}}!' }],
    });
    const relay = await startRelay(db.url);
    cleanups.push(() => relay.close());
    const env = { DATABASE_URL: relay.url, SNAPSHOT_FILE: join(await tempDir(), 'snapshot.json') };

    const first = await startReplica(env);
    expect(await greeting(first.url)).toEqual({ type: 'text', text: 'Hello, Ada!' });
    await vi.waitFor(
      async () => expect((await readiness(first.url)).body).toMatchObject({ snapshotSavedAt: expect.any(Number) }),
      { timeout: 30_000 },
    );
    const exited = new Promise((resolve) => first.child.once('close', resolve));
    first.child.kill('SIGTERM');
    await exited;

    await relay.refuse();
    await editor.put({
      name: 'greet',
      arguments: [{ name: 'who', required: true }],
      messages: [{ role: 'user', content: 'Good morning, {{who}}!' }],
    });
    const second = await startReplica(env);
    expect(await greeting(second.url)).toEqual({ type: 'text', text: 'Hello, Ada!' });
    const down = await readiness(second.url);
    expect(down).toMatchObject({ status: 200, body: { ready: true, status: 'degraded', source: 'snapshot' } });

    await relay.accept();
    await vi.waitFor(
      async () => expect((await readiness(second.url)).body).toMatchObject({ status: 'ok', source: 'store' }),
      { timeout: 30_000 },
    );
    expect(await greeting(second.url)).toEqual({ type: 'text', text: 'Good morning, Ada!' });
  }, 120_000);
});
