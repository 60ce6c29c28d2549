/**
 * The database of `push` and `pull`: its URL (`--database` or DATABASE_URL, shown only without its password), `pg`
 * loaded on demand (an optional peer), and the store on a pool of its own.
 */
import type { PostgresPromptStore } from '../stores/postgres/store.js';
import { createPostgresPromptStore } from '../stores/postgres/store.js';
import type { PgPool } from '../stores/postgres/types.js';
import { DatabaseFailure, UsageError } from './args.js';

/** How long a connection attempt, and each request, may take by default before the command gives up. */
export const DEFAULT_DATABASE_TIMEOUT_MS = 60_000;

/** The URL from `--database`, else DATABASE_URL; checked to be a postgres: URL. */
export function databaseUrl(command: string, given: string | undefined, env: NodeJS.ProcessEnv): string {
  const url = given ?? env['DATABASE_URL'];
  if (url === undefined || url === '')
    throw new UsageError(`${command}: give the database with --database <url> or the DATABASE_URL variable`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${command}: the database URL is not a URL (expected postgres://user@host:5432/db)`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new UsageError(`${command}: the database URL must start with postgres:// or postgresql://`);
  return url;
}

/** The URL as it may be shown: its password (and any password parameter) replaced by `***`. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) if (/pass/i.test(key)) parsed.searchParams.set(key, '***');
  return parsed.toString();
}

/** Replaces every occurrence of the URL's password in a message (a driver may quote what it was given). */
export function scrubPassword(message: string, url: string): string {
  let out = message;
  const parsed = new URL(url);
  const secrets = [parsed.password, decodeURIComponent(parsed.password), url];
  for (const [key, value] of parsed.searchParams) if (/pass/i.test(key)) secrets.push(value);
  for (const secret of secrets) if (secret.length >= 3) out = out.split(secret).join('***');
  return out;
}

type PgModule = { Pool: new (config: Record<string, unknown>) => PgPool & PoolEvents };
interface PoolEvents {
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(): Promise<void>;
}

/** Loads `pg`; missing, it is a failure that says how to install it. */
export async function loadPg(command: string, specifier = 'pg'): Promise<PgModule> {
  try {
    const loaded = (await import(specifier)) as { default?: PgModule } & Partial<PgModule>;
    const pg = loaded.default ?? (loaded as PgModule);
    if (typeof pg.Pool !== 'function') throw new Error(`${specifier} has no Pool`);
    return pg;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why =
      code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND'
        ? 'it is not installed'
        : error instanceof Error
          ? error.message
          : String(error);
    throw new DatabaseFailure(
      `${command} needs the PostgreSQL driver 'pg' (an optional peer dependency), but ${why}: npm install pg`,
    );
  }
}

/** A store on its own pool; `close` ends both. */
export interface OpenedDatabase {
  store: PostgresPromptStore;
  /** The URL without its password. */
  shown: string;
  /** The table, as `schema.table`. */
  table: string;
  /** A failure's message without the password. */
  describe(error: unknown): string;
  close(): Promise<void>;
}

/** Opens the database: a small pool (idle errors are noted, never fatal) and the store on it. */
export async function openDatabase(
  command: string,
  url: string,
  options: { table?: string | undefined; schema?: string | undefined; timeoutMs?: number | undefined },
): Promise<OpenedDatabase> {
  const pg = await loadPg(command);
  // A server that stops answering (a frozen host, a dropped route) fails the request after the timeout: never a hang.
  const timeoutMs = options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    keepAlive: true,
  });
  // An idle client the server drops is reported here; the next query gets a new one.
  pool.on('error', () => {});
  let store: PostgresPromptStore;
  try {
    store = createPostgresPromptStore({
      pool,
      ...(options.table === undefined ? {} : { table: options.table }),
      ...(options.schema === undefined ? {} : { schema: options.schema }),
    });
  } catch (error) {
    await pool.end().catch(() => {});
    throw new UsageError(`${command}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    store,
    shown: redactUrl(url),
    table: `${options.schema ?? 'public'}.${options.table ?? 'prompts'}`,
    describe: (error) => scrubPassword(errorMessage(error), url),
    async close() {
      await store.close();
      await pool.end().catch(() => {});
    },
  };
}

/** A failure's message, with its cause's when the store wrapped it (the driver's own words name what went wrong). */
function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  const message = error.message === '' && code !== undefined ? String(code) : error.message;
  if (message !== '') return message.split('\n', 1)[0]!;
  return error instanceof AggregateError && error.errors.length > 0 ? errorMessage(error.errors[0]) : error.name;
}

/** Whether a failure is PostgreSQL saying the table does not exist (SQLSTATE 42P01). */
export function isMissingTable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '42P01';
}
