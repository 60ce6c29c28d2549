/**
 * PostgreSQL for test suites: the server this vitest run shares (see pg-global-setup.ts), or DATABASE_URL's; each
 * suite gets its own throwaway database on it.
 */
import { inject } from 'vitest';
import { startTestDatabase } from './pg-server.js';
import type { TestDatabase } from './pg-server.js';

/** The admin URL of the server this run uses (started on the first request). */
export async function sharedServerUrl(): Promise<string> {
  const own = process.env['DATABASE_URL'];
  if (own !== undefined && own !== '') return own;
  const response = await fetch(inject('postgresCoordinator'), { method: 'POST' });
  const body = await response.text();
  if (!response.ok) throw new Error(`the shared PostgreSQL server did not start: ${body}`);
  return body;
}

/** A throwaway database on the shared server, dropped by `close`. */
export async function testDatabase(): Promise<TestDatabase> {
  return startTestDatabase({ adminUrl: await sharedServerUrl() });
}
