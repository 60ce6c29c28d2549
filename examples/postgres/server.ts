import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import pg from 'pg';
import { PromptRegistry, syncRegistry } from 'mcp-prompt-kit';
import { attachPrompts } from 'mcp-prompt-kit/mcp';
import { createPostgresPromptStore } from 'mcp-prompt-kit/postgres';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
pool.on('error', (error) => console.error('idle PostgreSQL client failed:', error.message)); // reconnects on next use
const store = createPostgresPromptStore({
  pool,
  logger: { warn: (fields, message) => console.error(message, fields) },
});
await store.migrate(); // idempotent; concurrent replicas take turns

const prompts = new PromptRegistry();
await syncRegistry(store, prompts, { label: process.env.PROMPT_LABEL ?? 'production' });
const server = new McpServer({ name: 'prompts-replica', version: '1.0.0' });
attachPrompts(server, prompts); // every replica sends list_changed when the table changes
await server.connect(new StdioServerTransport());
