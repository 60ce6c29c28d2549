/**
 * The few `pg` shapes the PostgreSQL store uses, declared structurally so that `pg` stays an optional peer: a
 * `pg.Pool`, `pg.PoolClient` and `pg.Client` fit them.
 *
 * @module
 */

/** A query result (the fields the store reads). */
export interface PgQueryResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

/** Anything that runs a parameterised query: a pool or a client. */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<PgQueryResult>;
}

/** A client checked out of a pool: the store listens for its `error` event while it holds it. */
export interface PgPoolClient extends PgQueryable {
  release(destroy?: boolean | Error): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/** A connection pool, such as `new pg.Pool(...)`. */
export interface PgPool extends PgQueryable {
  connect(): Promise<PgPoolClient>;
}

/** A NOTIFY message as `pg` delivers it. */
export interface PgNotification {
  channel: string;
  payload?: string | undefined;
}

/** A session connection that can LISTEN: a `pg.Client` or a `pg.PoolClient`. */
export interface PgListenerClient extends PgQueryable {
  on(event: 'notification', listener: (message: PgNotification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  /** A pool client is given back with `release(true)` (destroyed); a plain client is closed with `end()`. */
  release?(destroy?: boolean | Error): void;
  end?(): Promise<void>;
}

/** @internal A client used for one multi-statement operation. */
export type PgClient = PgQueryable;
