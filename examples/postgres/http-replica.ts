import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { PromptRegistry, syncRegistry } from 'mcp-prompt-kit';
import { createFileSnapshot } from 'mcp-prompt-kit/fs';
import { createNodeHandler } from 'mcp-prompt-kit/http';
import { createPostgresPromptStore } from 'mcp-prompt-kit/postgres';

// The tables exist already: `store.migrate()` ran at deploy time (a replica must start while the database is away).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 2_000 });
pool.on('error', (error) => console.error('idle PostgreSQL client failed:', error.message));
const store = createPostgresPromptStore({ pool });

const prompts = new PromptRegistry();
const sync = await syncRegistry(store, prompts, {
  label: process.env.PROMPT_LABEL ?? 'production',
  // Written after each change read from the database; read at start when the database cannot be.
  snapshot: createFileSnapshot(process.env.SNAPSHOT_FILE ?? 'prompts-snapshot.json'),
});

// GET /readyz: 200 while serving a known-good set; 503 once degraded for more than 15 minutes.
const handler = createNodeHandler(prompts, { readiness: { sync, maxDegradedMs: 15 * 60_000 } });
const server = createServer(handler).listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
