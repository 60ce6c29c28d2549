/**
 * The public types of the PostgreSQL store: the store itself, its put options, versions, label moves and history, and
 * a transaction's writes.
 *
 * @module
 */
import type { TemplatePromptDefinition } from '../../definition/types.js';
import type { PromptStore, StoreRevisions, StoreRevisionsOptions, StoredPrompt } from '../contract.js';
import type { MigrateOptions, MigrationReport } from './migrate.js';

/** Options of {@link PostgresPromptStore.put}. */
export interface PutOptions {
  /** Labels moved to the new version (default `['production']`; `[]` moves none: only `latest` sees it). */
  labels?: readonly string[];
  /** Recorded as who made the change (default: the database user). */
  actor?: string;
}

/** One version of a prompt. */
export interface PromptVersion {
  version: number;
  createdAt: Date;
  createdBy: string;
  /** Labels pointing at this version now (`latest` included for the newest). */
  labels: string[];
}

/** One recorded label move (`to: null`: the label was removed). */
export interface LabelMove {
  label: string;
  from: number | null;
  to: number | null;
  movedAt: Date;
  movedBy: string;
}

/** What {@link PostgresPromptStore.history} returns. */
export interface PromptHistory {
  name: string;
  /** Newest first. */
  versions: PromptVersion[];
  /** Newest first. */
  labelMoves: LabelMove[];
}

/** The writes of {@link PostgresPromptStore.transaction}: the store's own, on the transaction's connection. */
export interface PromptTransaction {
  put(definition: TemplatePromptDefinition, options?: PutOptions): Promise<StoredPrompt>;
  setLabel(name: string, label: string, version: number, options?: { actor?: string }): Promise<number | null>;
  deleteLabel(name: string, label: string, options?: { actor?: string }): Promise<boolean>;
}

/** A {@link PromptStore} in PostgreSQL, with versions, labels and their history. */
export interface PostgresPromptStore extends PromptStore {
  /**
   * Creates or upgrades the tables, triggers and role constraint, running only the DDL that is missing (none, and no
   * lock beyond a read's, when up to date); converts legacy rows.
   */
  migrate(options?: MigrateOptions): Promise<MigrationReport>;
  put(definition: TemplatePromptDefinition, options?: PutOptions): Promise<StoredPrompt>;
  delete(name: string, options?: { actor?: string }): Promise<boolean>;
  /** Every version of a prompt, newest first (empty when it has none). */
  versions(name: string): Promise<PromptVersion[]>;
  /** Label pointers of a prompt: label -> version (`latest` included). */
  labels(name: string): Promise<Record<string, number>>;
  /** Versions and label moves of a prompt, newest first. */
  history(name: string): Promise<PromptHistory>;
  /** Moves (or creates) a label; returns the version it pointed to before (null if none). */
  setLabel(name: string, label: string, version: number, options?: { actor?: string }): Promise<number | null>;
  /** Removes a label from a prompt (replicas following it drop the prompt); returns whether it existed. */
  deleteLabel(name: string, label: string, options?: { actor?: string }): Promise<boolean>;
  /**
   * Runs `work` in one transaction: the writes it makes through `tx` are committed together, or (when one fails, or
   * the connection is lost) none is, and it rejects with an INTERNAL_ERROR PromptError naming the step that failed.
   * `actor` is recorded for every step that names none. Replicas hear of the changes once they are committed.
   *
   * @example
   * ```ts
   * import pg from 'pg';
   * import { createPostgresPromptStore } from 'mcp-prompt-kit/postgres';
   *
   * const store = createPostgresPromptStore({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
   * await store.transaction(async (tx) => {
   *   const { version } = await tx.put({ name: 'greet', messages: [{ role: 'user', content: 'Hi' }] }, { labels: [] });
   *   await tx.setLabel('greet', 'staging', version);
   *   await tx.deleteLabel('farewell', 'staging');
   * }, { actor: 'ci' });
   * ```
   */
  transaction<T>(work: (tx: PromptTransaction) => Promise<T>, options?: { actor?: string }): Promise<T>;
  /**
   * Moves a label back to where it pointed before its last move, in one transaction that holds the label: a move in
   * progress finishes first and is the one undone. Returns the version the label now points to.
   */
  rollback(name: string, label?: string, options?: { actor?: string }): Promise<number>;
  /**
   * The names and versions a label serves with their fingerprint, in one statement (no definitions read); no rows when
   * the fingerprint is still `since`. What `syncRegistry`'s reconcile reads.
   */
  revisions(options?: StoreRevisionsOptions): Promise<StoreRevisions>;
  /** Whether the LISTEN session is connected (false before the first watcher, and while it reconnects). */
  isListening(): boolean;
  /** Stops listening. The pool is yours to end. */
  close(): Promise<void>;
}
