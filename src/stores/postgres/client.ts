/**
 * The store's transactions on checked-out connections, which cannot take the process down: every client the store
 * holds has an `error` listener while it is held, a failed write rejects with a logged PromptError, and a connection
 * that failed is destroyed rather than given back to the pool.
 *
 * @module
 */
import { PromptError, errorClassName, isPromptError } from '../../errors.js';
import type { SafeLogger } from '../../logger.js';
import type { PgPool, PgPoolClient, PgQueryable } from './types.js';
import { setWriteSettings } from './writes.js';

/** @internal What an operation is, for its error message and log entry. */
export interface Operation {
  /** `put`, `setLabel`, `migrate`, ... */
  name: string;
  /** `schema.table`. */
  table: string;
  /** The prompt it writes, when there is one. */
  prompt?: string;
  log: SafeLogger;
}

/** @internal The SQLSTATE of a `pg` error (`57P01`: terminated by an administrator), when it has one. */
export function sqlState(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** The PromptError an operation rejects with (our own PromptErrors pass through), logged once. */
function failure(operation: Operation, error: unknown): PromptError {
  if (isPromptError(error)) return error;
  const reason = error instanceof Error ? error.message : errorClassName(error);
  const subject = operation.prompt === undefined ? '' : ` of '${operation.prompt}'`;
  operation.log.error(
    {
      event: 'prompt_store_write_failed',
      table: operation.table,
      operation: operation.name,
      ...(operation.prompt === undefined ? {} : { prompt: operation.prompt }),
      error: errorClassName(error),
      ...(sqlState(error) === undefined ? {} : { sqlState: sqlState(error) }),
    },
    'prompt store write failed',
  );
  return new PromptError('INTERNAL_ERROR', `${operation.name}${subject} on ${operation.table} failed: ${reason}`, {
    cause: error,
  });
}

/**
 * Runs `work` in a transaction on a client checked out of `pool`, with the actor and the labels to move set for the
 * triggers. The client has an `error` listener for as long as it is held (a backend killed mid-write is an event `pg`
 * emits, which unheard ends the process). A failure rolls back and rejects with a logged PromptError; a client whose
 * connection failed, or that cannot even roll back, is destroyed instead of going back to the pool.
 */
export async function inTransaction<T>(
  pool: PgPool,
  operation: Operation,
  settings: { actor?: string | undefined; labels?: string },
  work: (client: PgQueryable) => Promise<T>,
): Promise<T> {
  let client: PgPoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw failure(operation, error);
  }
  let broken: Error | undefined;
  const onError = (error: Error): void => {
    broken ??= error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    await setWriteSettings(client, settings);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (broken === undefined) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken ??= rollbackError instanceof Error ? rollbackError : new Error('rollback failed');
      });
    }
    throw failure(operation, error);
  } finally {
    // A destroyed client keeps the listener: `pg` may still report its closed socket after the release.
    if (broken === undefined) client.removeListener('error', onError);
    try {
      client.release(broken);
    } catch {
      /* a pool that cannot take the client back has dropped it already */
    }
  }
}
