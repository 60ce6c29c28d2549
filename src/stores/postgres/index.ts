/**
 * `mcp-prompt-kit/postgres`: prompts stored in PostgreSQL with versions, labels and a history, shared by every server
 * replica through LISTEN/NOTIFY. Bring your own `pg` pool (`pg` is an optional peer dependency).
 *
 * @module
 */
export { createPostgresPromptStore } from './store.js';
export type {
  LabelMove,
  PostgresPromptStore,
  PromptHistory,
  PromptTransaction,
  PromptVersion,
  PutOptions,
} from './store.js';
export type { PostgresPromptStoreOptions } from './store-options.js';
export type { MigrateOptions, MigrationReport } from './migrate.js';
export type { PgListenerClient, PgNotification, PgPool, PgPoolClient, PgQueryResult, PgQueryable } from './types.js';
