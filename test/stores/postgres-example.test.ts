/**
 * docs/replicas.md's example IS examples/postgres/server.ts; examples/postgres/demo.ts runs two of them
 * on one database and edits a prompt with plain SQL.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blocksIn } from '../readme-blocks.js';
import { sharedServerUrl } from './pg-database.js';
import { TS_NODE_ARGS } from '../support/processes.js';

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
    expect(blocksIn('docs/replicas.md', 'Replicas and PostgreSQL', 'ts').map((b) => b.code)).toEqual([source]);
  });

  it('serves an SQL edit from both replicas, each announcing it with list_changed', async () => {
    // The demo makes its own throwaway database on this run's server (or starts one when DATABASE_URL is unset).
    const env = { ...process.env, DATABASE_URL: await sharedServerUrl() };
    // Well inside the test's own timeout, so that a stuck demo fails with its output rather than a bare timeout.
    const { code, stdout, stderr } = await runChild([...TS_NODE_ARGS, 'examples/postgres/demo.ts'], env, 100_000);
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
