/**
 * Two replicas of examples/postgres/server.ts on one database: a prompt edited with plain SQL reaches both.
 * Uses DATABASE_URL when set; otherwise starts a throwaway PostgreSQL (the embedded server the tests use).
 *
 *   npx tsx examples/postgres/demo.ts
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createPostgresPromptStore } from 'mcp-prompt-kit/postgres';
import { startTestDatabase } from '../../test/stores/pg-server.js';

const db = await startTestDatabase();
const clients: Client[] = [];
try {
  const pool = db.pool();
  const store = createPostgresPromptStore({ pool });
  await store.migrate();
  await store.put({
    name: 'greet',
    arguments: [{ name: 'who', required: true }],
    messages: [{ role: 'user', content: 'Hello, {{who}}!' }],
  });

  // Both replicas start at once (each a child process running server.ts), then answer in turn.
  const changed: Promise<void>[] = [];
  const replicas = ['A', 'B'];
  await Promise.all(
    replicas.map(async (replica) => {
      const client = new Client({ name: `demo-client-${replica}`, version: '1.0.0' });
      clients.push(client);
      changed.push(
        new Promise((resolve) => client.setNotificationHandler(PromptListChangedNotificationSchema, () => resolve())),
      );
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: ['--import', 'tsx', fileURLToPath(new URL('server.ts', import.meta.url))],
          env: { ...process.env, DATABASE_URL: db.url } as Record<string, string>,
          stderr: 'inherit',
        }),
      );
    }),
  );
  for (const [i, client] of clients.entries()) {
    const result = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    console.log(`replica ${'AB'[i]} before: ${JSON.stringify(result.messages[0]?.content)}`);
  }

  console.log(`UPDATE prompts SET messages = ... WHERE name = 'greet'`);
  await pool.query(
    `UPDATE prompts SET messages = '[{"role":"user","content":"Good morning, {{who}}!"}]' WHERE name = 'greet'`,
  );
  await Promise.all(changed);
  for (const [i, client] of clients.entries()) {
    const result = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    console.log(`replica ${'AB'[i]} after: ${JSON.stringify(result.messages[0]?.content)}`);
  }
  console.log(
    'history:',
    JSON.stringify((await store.history('greet')).labelMoves.map((m) => `${m.label} ${m.from} -> ${m.to}`)),
  );
} finally {
  for (const client of clients) await client.close();
  await db.close();
}
